/**
 * The one typed error envelope every service answers with: `{"error":{"code","message"}}`.
 * @module
 */

/** Every error code a service may answer with, mapped to its HTTP status. */
export const ERROR_STATUS = {
  INVALID_ARGUMENTS: 400,
  UNAUTHORIZED: 401,
  UPSTREAM_BLOCKED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UPSTREAM_UNAVAILABLE: 502,
  LOCAL_ONLY: 501,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string };
}

/** An error that knows how it is shown to a client; throw it anywhere below a handler. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The envelope as a plain value (for MCP tool results and the CLI). */
export function envelope(code: ErrorCode, message: string): ErrorEnvelope {
  return { error: { code, message } };
}

/** The envelope as an HTTP response with the code's status. */
export function errorResponse(
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(envelope(code, message)), {
    status: ERROR_STATUS[code],
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * Turns anything thrown below a handler into the envelope. Unknown errors become INTERNAL
 * with a generic message, so stack traces and secrets never reach a client.
 */
export function toErrorResponse(err: unknown): Response {
  if (err instanceof ApiError) return errorResponse(err.code, err.message, err.headers);
  return errorResponse("INTERNAL", "Internal error; the request was not completed");
}
