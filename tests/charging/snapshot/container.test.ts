/**
 * The container is checked before anything is read from it: magic, version, the section
 * directory, each section's CRC-32, the HEAD JSON and the spatial index's own buffer.
 */
import { test } from "node:test";
import { bytes, tamper, unusable } from "./corrupt.ts";

test("a truncated file, a flipped byte, a wrong magic or version: INVALID_DATA naming the problem", () => {
  unusable(bytes.slice(0, 4), /magic/);
  unusable(bytes.slice(0, 20), /truncated/);
  unusable(bytes.slice(0, bytes.length - 100), /truncated: section \w+ ends past the end/);
  unusable(new TextEncoder().encode('{"format":"charging-sites/1"}'), /magic/);
  const version = bytes.slice();
  version[8] = 9;
  unusable(version, /version 9; this server reads version 1/);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const sections = view.getUint32(12, true);
  for (let i = 0; i < sections; i++) {
    const offset = view.getUint32(16 + i * 16 + 4, true);
    const length = view.getUint32(16 + i * 16 + 8, true);
    if (length === 0) continue;
    const flipped = bytes.slice();
    (flipped[offset + Math.floor(length / 2)] as number) ^= 0x40;
    unusable(flipped, /fails its CRC-32 check/);
  }
});

test("a HEAD that is no JSON or not a head, and an unreadable spatial index, are refused past the CRC", () => {
  unusable(tamper("HEAD", (s) => s.fill(0x20)), /HEAD section is malformed|not JSON/);
  unusable(tamper("KDBX", (s) => (s[0] = 0)), /spatial index is unreadable/);
});
