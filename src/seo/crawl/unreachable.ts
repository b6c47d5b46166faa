/**
 * The next step to suggest when a site could not be reached: a TLS certificate the runtime does
 * not trust (common with local dev certificates, which Node does not read from the system
 * store) needs a different fix than a server that is not running.
 * @module
 */
import { ApiError, ERRORS } from "../../shared/errors.ts";

const TLS_FAILURE = /cert|altname|self-signed|unable to verify|UNABLE_TO_VERIFY/i;

export const TLS_NEXT_STEP =
  "the site's HTTPS certificate is not trusted: for a local dev certificate (e.g. mkcert) set NODE_EXTRA_CA_CERTS=<its root CA .pem> in this tool's environment and retry, or use the http:// URL";

/** Whether a fetch error text is a certificate the runtime did not trust. */
export function isTlsFailure(error: string): boolean {
  return TLS_FAILURE.test(error);
}

/** A sentence for the user, chosen from the fetch error text. */
export function reachNextStep(error: string): string {
  return isTlsFailure(error) ? TLS_NEXT_STEP : ERRORS.UNREACHABLE.hint;
}

/** The network error in words a user acts on: most often nothing is listening yet. */
function connectionProblem(error: string): string {
  if (/ECONNREFUSED/.test(error)) return `connection refused: nothing is listening there (${error})`;
  if (/ENOTFOUND|EAI_AGAIN/.test(error)) return `the host name does not resolve (${error})`;
  if (/ECONNRESET|socket hang up/i.test(error)) return `the connection was closed before an answer (${error})`;
  return error;
}

/**
 * The start origin did not answer at all (its robots.txt request got no response): a
 * connection error with the next step. Not robots.txt's words: RFC 9309 treats an unreachable
 * robots.txt as "disallow everything", which describes the crawl's rule, not the user's problem.
 */
export function unreachableStart(origin: string, error: string): ApiError {
  return new ApiError("UNREACHABLE", `could not reach ${origin}: ${connectionProblem(error)}; ${reachNextStep(error)}`);
}
