/** The shipped data set as a snapshot, and ways to break one for the reader's checks. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseDatasetFile } from "../../../src/charging/data/dataset.ts";
import { crc32 } from "../../../src/charging/snapshot/crc32.ts";
import { openSnapshot } from "../../../src/charging/snapshot/read.ts";
import { snapshotOf } from "../../../src/charging/snapshot/write.ts";
import { isApiError } from "../../../src/shared/errors.ts";

const shipped = parseDatasetFile(JSON.parse(readFileSync(new URL("../../../fixtures/charging/sites.json", import.meta.url), "utf8")));
export const bytes = snapshotOf(shipped.sites, shipped.header);

/** Opening `b` throws INVALID_DATA whose message matches `message`. */
export const unusable = (b: Uint8Array, message: RegExp) =>
  assert.throws(() => openSnapshot(b), (err: unknown) => isApiError(err, "INVALID_DATA") && message.test(err.message));

/** Rewrites a section's checksum so tampering gets past the CRC and must be caught by the later checks. */
export function tamper(tag: string, edit: (section: Uint8Array) => void): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  for (let i = 0; i < view.getUint32(12, true); i++) {
    const entry = 16 + i * 16;
    if (String.fromCharCode(...copy.subarray(entry, entry + 4)) !== tag) continue;
    const section = copy.subarray(view.getUint32(entry + 4, true), view.getUint32(entry + 4, true) + view.getUint32(entry + 8, true));
    edit(section);
    view.setUint32(entry + 12, crc32(section), true);
  }
  return copy;
}
