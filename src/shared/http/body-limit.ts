/**
 * Request-body cap enforced before anything parses the body: the declared content-length is
 * checked first, then the bytes are counted while the stream is read, so a missing or lying
 * content-length (chunked upload) cannot get past the cap.
 * @module
 */
import { ApiError } from "../errors.ts";

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
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
  });
}
