/**
 * The one registry of error codes and the one error class. Every failure a client, an agent or
 * a terminal user sees is an `ApiError` with a code from `ERRORS`; each transport turns it into
 * its own shape at one place: HTTP `toErrorResponse` (here), MCP `toolErrorResult` and
 * `toJsonRpcError` (src/shared/mcp/), the command lines `reportFailure` (src/shared/cli/).
 * @module
 */

/** What the registry says about a code. */
interface ErrorSpec {
  /** The HTTP status of the envelope (and of a JSON-RPC error over HTTP). */
  status: number;
  /** When it is answered (for the docs table). */
  when: string;
  /** The default next step, used where the thrower has nothing more specific to say. */
  hint: string;
}

/**
 * Every code any service, transport or command line answers with. A code outside it is a
 * compile error: constructors and helpers take `ErrorCode`. README.md's error table is
 * generated from it (`node scripts/error-codes.ts`; a test fails when the two drift).
 */
export const ERRORS = {
  INVALID_ARGUMENTS: {
    status: 400,
    when: "a query parameter, tool argument or option is missing, unknown, repeated or out of range",
    hint: "fix the arguments the message names and call again",
  },
  INVALID_URL: {
    status: 400,
    when: "the URL to audit is not an absolute http(s) URL, or carries user:password@",
    hint: "pass an absolute http(s) URL without credentials, like https://example.com/",
  },
  INVALID_USAGE: {
    status: 400,
    when: "a command line has an unknown option, a missing value or a wrong argument (exit code 2)",
    hint: "see the command's --help",
  },
  UNAUTHORIZED: {
    status: 401,
    when: "a key gate or token is on and the key or token is missing or unknown",
    hint: "send the key or token the www-authenticate header names",
  },
  UPSTREAM_BLOCKED: {
    status: 403,
    when: "an outbound address is not allowed (loopback, private, link-local, metadata, or not allowlisted); refused before any connection",
    hint: "do not retry: the destination is refused by policy",
  },
  ROBOTS_DISALLOWED: {
    status: 403,
    when: "robots.txt disallows the start URL of an audit",
    hint: "Allow the path for user agent SeoAuditMcp in robots.txt (or fix robots.txt if it is failing), or audit a URL robots.txt allows",
  },
  NOT_FOUND: {
    status: 404,
    when: "an unknown route, or an unknown, closed or malformed site id",
    hint: "check the path or id; search first and use an id from its results",
  },
  REPORT_NOT_FOUND: {
    status: 404,
    when: "compare_to names a report id that is not stored on this machine",
    hint: "pass the report_id of an earlier audit on this machine, or the earlier report object itself",
  },
  RESUME_NOT_FOUND: {
    status: 404,
    when: "audit --resume names a report id with no interrupted crawl saved on this machine (finished crawls and those untouched for a day are removed)",
    hint: "run the audit again without --resume",
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    when: "a route asked with a method it does not answer",
    hint: "use a method the allow header lists",
  },
  REQUEST_TIMEOUT: {
    status: 408,
    when: "a request's headers and body did not all arrive within the server's deadline (10 s on Node)",
    hint: "send the whole request at once; the connection is closed",
  },
  RESUME_LOCKED: {
    status: 409,
    when: "audit --resume names a crawl that another running audit has open",
    hint: "wait for that audit to end, or stop it with Ctrl-C, then run the same --resume again",
  },
  RESUME_MISMATCH: {
    status: 409,
    when: "audit --resume names a crawl saved by another version, or started with another URL or other crawl options than this command line gives",
    hint: "run --resume with the saved crawl's URL and options (or none: they are read from the saved crawl), or run the audit again without --resume",
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    when: "a request body over the cap",
    hint: "send a smaller body",
  },
  INVALID_DATA: {
    status: 422,
    when: "a data file (an import input, a snapshot) is truncated, corrupt or in no known format (exit code 2)",
    hint: "check that the file is complete and in a supported format",
  },
  OFF_SITE_REDIRECT: {
    status: 422,
    when: "the start URL of an audit redirects out of the site and nothing else was found",
    hint: "audit the URL it redirects to instead",
  },
  RESUME_CORRUPT: {
    status: 422,
    when: "audit --resume names a saved crawl whose file cannot be read (damaged or not a crawl file)",
    hint: "run the audit again without --resume",
  },
  RATE_LIMITED: {
    status: 429,
    when: "over the per-client request rate",
    hint: "retry after the seconds the retry-after header gives",
  },
  INTERNAL: {
    status: 500,
    when: "anything unexpected; no details leave the server (they go to its log)",
    hint: "retry once, and if it fails again report it",
  },
  WRITE_FAILED: {
    status: 500,
    when: "a command could not write the file a flag named (audit --html, import --out); the command's other output is kept (exit code 1)",
    hint: "check that the file's folder exists and is writable, or give the flag another path",
  },
    INVALID_CONFIG: {
    status: 500,
    when: "an environment variable, server flag or data file given at start-up is unusable (exit code 2)",
    hint: "fix the variable, flag or file the message names and start again",
  },
  LOCAL_ONLY: {
    status: 501,
    when: "a tool that runs only on the user's machine (the SEO site audit) called through a gateway",
    hint: "run it locally: the message names the command",
  },
  BROWSER_UNAVAILABLE: {
    status: 501,
    when: "an SEO audit asked for rendering (audit --render, render: true) and no Chromium or Chrome was found on this machine, or CHROME_PATH names a missing file",
    hint: "install a browser (apt-get install chromium, or Google Chrome) or set CHROME_PATH to its executable, then run again; without rendering, drop --render / render: true",
  },
  UPSTREAM_UNAVAILABLE: {
    status: 502,
    when: "an outbound request (live feed, page, provider) failed, timed out or answered nonsense",
    hint: "retry later, or check the URL is right and reachable",
  },
  UNREACHABLE: {
    status: 502,
    when: "the site to audit, or the server `charging --url` names, could not be reached at all",
    hint: "check the URL and that the server is running (for a local site, start its dev server first), then retry",
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The HTTP status of `code`. */
export const statusOf = (code: ErrorCode): number => ERRORS[code].status;

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string };
}

interface ApiErrorOptions {
  /** Response headers that go with it over HTTP (`retry-after`, `allow`, `www-authenticate`). */
  headers?: Record<string, string>;
  /** The failure underneath, for logs; never shown to a client. */
  cause?: unknown;
}

/**
 * A failure that knows how it is shown: its registry code, and a message that says what
 * happened and what to do next. Throw it anywhere; the transport converts it once.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ApiError";
    this.code = code;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return statusOf(this.code);
  }
}

/** What `err` says: its message, or the thrown value itself as text. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Whether `err` is an `ApiError` (with one of `codes`, when given). */
export function isApiError(err: unknown, ...codes: ErrorCode[]): err is ApiError {
  return err instanceof ApiError && (codes.length === 0 || codes.includes(err.code));
}

/** The envelope as a plain value. */
export function envelope(code: ErrorCode, message: string): ErrorEnvelope {
  return { error: { code, message } };
}

/** The envelope as an HTTP response with the code's status. */
export function errorResponse(
  code: ErrorCode,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return new Response(JSON.stringify(envelope(code, message)), {
    status: statusOf(code),
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * HTTP's conversion point: anything thrown below a handler becomes the envelope. Unknown
 * errors become INTERNAL with a generic message, so stack traces and secrets never reach a
 * client.
 */
export function toErrorResponse(err: unknown): Response {
  if (err instanceof ApiError) return errorResponse(err.code, err.message, err.headers);
  return errorResponse("INTERNAL", "Internal error; the request was not completed");
}
