import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { test } from "node:test";
import { gunzip, isGzip, readCapped } from "../../../src/shared/stream/bytes.ts";

const streamOf = (chunks: number[], onCancel: () => void = () => {}) => {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = chunks[i++];
      if (size === undefined) controller.close();
      else controller.enqueue(new Uint8Array(size).fill(7));
    },
    cancel: onCancel,
  });
};

test("readCapped() joins chunks up to and including the cap", async () => {
  const bytes = await readCapped(streamOf([3, 4, 3]), 10);
  assert.ok(bytes instanceof Uint8Array);
  assert.equal(bytes.byteLength, 10);
  assert.ok(bytes.every((b) => b === 7));
});

test("readCapped() stops at the first chunk past the cap and cancels the stream", async () => {
  let cancelled = false;
  let pulled = 0;
  const chunks = [6, 6, 6, 6];
  const stream = streamOf(
    chunks.map((c) => {
      pulled++;
      return c;
    }),
    () => {
      cancelled = true;
    },
  );
  assert.equal(await readCapped(stream, 10), "too-large");
  assert.equal(cancelled, true);
  assert.ok(pulled <= chunks.length);
});

test("gunzip() restores gzip data and refuses an expansion past its cap", async () => {
  const text = "charging ".repeat(1000);
  const packed = new Uint8Array(gzipSync(text));
  assert.equal(isGzip(packed), true);
  assert.equal(isGzip(new TextEncoder().encode(text)), false);
  const out = await gunzip(packed, 1 << 20);
  assert.ok(out instanceof Uint8Array);
  assert.equal(new TextDecoder().decode(out), text);
  assert.equal(await gunzip(new Uint8Array(gzipSync(Buffer.alloc(1 << 20))), 1024), "too-large");
});
