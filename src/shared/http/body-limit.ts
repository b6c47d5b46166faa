/**
 * Request-body cap enforced before anything parses the body: the declared content-length is
 * checked first, then the bytes are counted while the stream is read, so a missing or lying
 * content-length (chunked upload) cannot get past the cap.
 * @module
 */
import { ApiError } from "../errors.ts";
import { readCapped } from "../stream/bytes.ts";

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(
    "PAYLOAD_TOO_LARGE",
    `Request body is over the ${maxBytes}-byte cap; send a smaller body`,
  );
}

/**
 * Reads `request`'s body up to `maxBytes` and returns an equivalent request whose body is
 * in memory. Throws PAYLOAD_TOO_LARGE as soon as the cap is passed, without reading further.
 */
export async function withBodyCap(request: Request, maxBytes: number): Promise<Request> {
  if (request.body === null) return request;
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body.cancel().catch(() => {});
    throw tooLarge(maxBytes);
  }
  const body = await readCapped(request.body, maxBytes);
  if (body === "too-large") throw tooLarge(maxBytes);
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: body as Uint8Array<ArrayBuffer>,
    signal: request.signal,
  });
}
