import assert from "node:assert/strict";
import { test } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { compressFast, NODE_ENCODINGS } from "../../../../shim/node/charging/compress.ts";
import type { Compressor, Encoding } from "../../../../src/charging/mod.ts";
import { make } from "../../../charging/transports/http/harness.ts";

const UNPACK: Record<Encoding, (bytes: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

test("compressFast: brotli and gzip bytes decode to the answer, and shrink it", async () => {
  const answer = new TextEncoder().encode(JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: `s${i}`, name: "Charging site", lat: i / 7, lon: -i / 9 })) }));
  for (const encoding of ["br", "gzip"] as const) {
    const packed = await compressFast(answer, encoding);
    assert.ok(packed.byteLength < answer.byteLength / 4, encoding);
    assert.deepEqual(new Uint8Array(UNPACK[encoding](Buffer.from(packed))), answer, encoding);
  }
});

test("the charging handler compresses with the injected compressor, by the client's accept-encoding, and keeps a repeated query's", async () => {
  const used: Encoding[] = [];
  const counted: Compressor = (bytes, encoding) => {
    used.push(encoding);
    return compressFast(bytes, encoding);
  };
  const handler = make({ encodings: NODE_ENCODINGS, compress: counted });
  const get = (path: string, accept?: string) =>
    handler(new Request(`http://api.test${path}`, { headers: accept ? { "accept-encoding": accept } : {} }));
  for (const [i, accept] of ["br", "gzip", "gzip, deflate, br, zstd"].entries()) {
    // A distinct query each time, as a map pan makes: nothing kept to answer from.
    const path = `/api/v1/sites?limit=${20 + i}`;
    const identity = await (await get(path)).text();
    const packed = await get(path, accept);
    const encoding = packed.headers.get("content-encoding") as Encoding;
    assert.equal(encoding, accept === "br" ? "br" : "gzip", accept);
    const unpacked = UNPACK[encoding](Buffer.from(await packed.arrayBuffer())).toString("utf8");
    assert.deepEqual(JSON.parse(unpacked), JSON.parse(identity), accept);
  }
  assert.deepEqual(used, ["br", "gzip", "gzip"], "a browser's offer (all alike) gets gzip, the one offered first");
  // A query's compressed bytes are kept from its second request on (a map pan's one-off box is not).
  await get("/api/v1/sites?limit=20", "br;q=1, gzip;q=0.5");
  assert.equal(used.length, 4, "asked a second time: compressed again, and kept");
  const kept = await get("/api/v1/sites?limit=20", "br");
  assert.equal(used.length, 4, "a repeated query is answered from the compressed copy kept");
  assert.equal(kept.headers.get("content-encoding"), "br");
  assert.equal(brotliDecompressSync(Buffer.from(await kept.arrayBuffer())).toString("utf8"), await (await get("/api/v1/sites?limit=20")).text());
});
