/**
 * The next step to suggest when a site could not be reached: a TLS certificate the runtime does
 * not trust (common with local dev certificates, which Node does not read from the system
 * store) needs a different fix than a server that is not running.
 * @module
 */
import { ERRORS } from "../../shared/errors.ts";

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
