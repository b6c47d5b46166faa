import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { createReusedGzip } from "../../../../shim/node/charging/gzip-reuse.ts";

const unpack = (bytes: Uint8Array) => new Uint8Array(gunzipSync(bytes));

test("reused gzip: every answer is a gzip member of its own that decodes to it, whatever came before (fast-check)", () => {
  const gzip = createReusedGzip(1);
  const answer = fc.oneof(
    fc.uint8Array({ maxLength: 4000 }),
    fc.array(fc.record({ id: fc.string(), lat: fc.double({ noNaN: true }), name: fc.string({ unit: "grapheme" }) }), { maxLength: 60 }).map((xs) => new TextEncoder().encode(JSON.stringify({ data: xs }))),
  );
  fc.assert(
    fc.property(fc.array(answer, { minLength: 1, maxLength: 6 }), (answers) => {
      const packed = answers.map((bytes) => gzip(bytes));
      packed.forEach((out, i) => {
        assert.ok(out, "made by the reused stream");
        assert.deepEqual(unpack(out), answers[i]);
      });
    }),
    { numRuns: 100 },
  );
});

test("reused gzip: output that would not fit the scratch buffer is left to gzipSync, and the next answer still compresses", () => {
  const gzip = createReusedGzip(1, 512);
  assert.equal(gzip(randomBytes(4096)), undefined);
  const text = new TextEncoder().encode(JSON.stringify({ data: Array.from({ length: 50 }, (_, i) => ({ id: `ocm:${i}`, name: "Charging site" })) }));
  const out = gzip(text);
  assert.ok(out && out.byteLength < text.byteLength / 4);
  assert.deepEqual(unpack(out), text);
});
