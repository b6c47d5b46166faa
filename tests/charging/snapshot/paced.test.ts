/**
 * Opening a snapshot with pauses (`openSnapshotPaced`, what the Node server does when it swaps
 * to a new data set): the same snapshot as `openSnapshot`, many short steps, sections larger
 * than one CRC piece checked piece by piece, and the same refusals.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { crc32 as nativeCrc32 } from "node:zlib";
import { crc32 } from "../../../src/charging/snapshot/crc32.ts";
import { openSnapshot, openSnapshotPaced } from "../../../src/charging/snapshot/read.ts";
import { snapshotOf } from "../../../src/charging/snapshot/write.ts";
import { site } from "../data/helpers.ts";

/** 90,000 sites: the TEXT section (48 bytes a site) is over 4 MB, two CRC pieces. */
const sites = Array.from({ length: 90_000 }, (_, i) => site(`ocm:${i + 1}`, { name: `site ${i}`, lat: (i % 170) - 85, lon: (i % 350) - 175 }));
const bytes = snapshotOf(sites, { importedAt: "2026-01-01T00:00:00.000Z", sources: [] });

/** The directory entry of `tag`: its offset and length. */
function section(tag: string): { offset: number; length: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let entry = 16; ; entry += 16) {
    if (String.fromCharCode(...bytes.subarray(entry, entry + 4)) === tag) return { offset: view.getUint32(entry + 4, true), length: view.getUint32(entry + 8, true) };
  }
}

const zlib = (b: Uint8Array, previous?: number) => nativeCrc32(b, previous ?? 0);

test("the table CRC-32 carries on from a previous piece, as zlib's does", () => {
  const whole = crc32(bytes.subarray(0, 100_000));
  assert.equal(crc32(bytes.subarray(50_000, 100_000), crc32(bytes.subarray(0, 50_000))), whole);
  assert.equal(zlib(bytes.subarray(50_000, 100_000), zlib(bytes.subarray(0, 50_000))), whole);
});

test("a paced open gives the snapshot openSnapshot gives, pausing between short steps once its slice is used", async () => {
  let steps = 0;
  let now = 0;
  // A clock past the slice at every look: a pause after every step.
  const clock = () => (now += 10);
  const paced = await openSnapshotPaced(bytes, { crc32: zlib, yieldNow: async () => void steps++, clock });
  const direct = openSnapshot(bytes);
  assert.equal(paced.version, direct.version);
  assert.equal(paced.size, 90_000);
  assert.deepEqual(paced.header, direct.header);
  assert.deepEqual(paced.text, direct.text);
  assert.ok(section("TEXT").length > 4 * 1048576);
  assert.ok(steps > 40, `${steps} steps: every section, every 4 MB of a section, every 16,384 elements of a check`);
});

test("a paced open within its slice does not pause", async () => {
  let pauses = 0;
  await openSnapshotPaced(bytes, { yieldNow: async () => void pauses++, clock: () => 0 });
  assert.equal(pauses, 0);
});

test("a paced open refuses what openSnapshot refuses: a flipped byte in the second CRC piece, a truncated file", async () => {
  const text = section("TEXT");
  const flipped = bytes.slice();
  const at = text.offset + text.length - 10;
  flipped[at] = (flipped[at] as number) ^ 0xff;
  const yieldNow = async () => {};
  for (const crc of [zlib, undefined]) {
    await assert.rejects(openSnapshotPaced(flipped, { ...(crc ? { crc32: crc } : {}), yieldNow }), /section TEXT fails its CRC-32 check/);
  }
  await assert.rejects(openSnapshotPaced(bytes.slice(0, text.offset + 8), { yieldNow }), /truncated: section \w+ ends past the end of the file/);
});
