import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "../../../src/shared/errors.ts";
import { withBodyCap } from "../../../src/shared/http/body-limit.ts";

function streamOf(chunks: number, size: number, pulled: { count: number }): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      if (pulled.count === chunks) return controller.close();
      pulled.count++;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
  });
}

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://x/mcp", { method: "POST", body, headers, duplex: "half" } as RequestInit);

test("withBodyCap() passes bodies within the cap through, readable again", async () => {
  const capped = await withBodyCap(post('{"a":1}'), 16);
  assert.equal(await capped.text(), '{"a":1}');
  const get = new Request("http://x/");
  assert.equal(await withBodyCap(get, 16), get);
});

test("withBodyCap() refuses a declared content-length over the cap without reading", async () => {
  const pulled = { count: 0 };
  await assert.rejects(
    withBodyCap(post(streamOf(100, 1024, pulled), { "content-length": "102400" }), 1024),
    (err: unknown) =>
      err instanceof ApiError && err.code === "PAYLOAD_TOO_LARGE" && /1024-byte cap/.test(err.message),
  );
  assert.ok(pulled.count <= 1, `pulled ${pulled.count}`);
});

test("withBodyCap() counts a streamed body with no or a lying content-length, stopping at the cap", async () => {
  const pulled = { count: 0 };
  await assert.rejects(withBodyCap(post(streamOf(100, 1024, pulled)), 4096), /PAYLOAD_TOO_LARGE|cap/);
  assert.ok(pulled.count < 10, `stopped early, pulled ${pulled.count}`);
  const lying = { count: 0 };
  await assert.rejects(
    withBodyCap(post(streamOf(100, 1024, lying), { "content-length": "10" }), 4096),
    /cap/,
  );
});
