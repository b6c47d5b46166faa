/** Every stored reference is checked against its range, even when the checksums are valid. */
import { test } from "node:test";
import { tamper, unusable } from "./corrupt.ts";

test("references out of range are refused even with valid checksums", () => {
  const u32 = (s: Uint8Array) => new Uint32Array(s.buffer, s.byteOffset, s.byteLength / 4);
  unusable(tamper("TEXT", (s) => (u32(s)[3] = 0xfffffff0)), /TEXT\[3\] = \d+ is out of range/);
  unusable(tamper("STRO", (s) => (u32(s)[5] = 0xffffff)), /STRO\[\d+\] goes backwards|STRO does not end/);
  unusable(tamper("CONO", (s) => (u32(s)[10] = 0)), /CONO\[\d+\] goes backwards/);
  unusable(tamper("KIND", (s) => (s[0] = 7)), /KIND\[0\] = 7 is out of range/);
  unusable(tamper("KIND", (s) => (s[s.length - 1] = 0)), /out of id order|not from its partition/);
  unusable(tamper("STAT", (s) => (s[1] = 200)), /STAT\[1\] = 200/);
  unusable(tamper("CKND", (s) => (u32(s)[0] = 99999)), /CKND\[0\]/);
  unusable(tamper("LATS", (s) => new DataView(s.buffer, s.byteOffset).setFloat64(0, 95, true)), /coordinates out of range|spatial index/);
  unusable(tamper("LONS", (s) => new DataView(s.buffer, s.byteOffset).setFloat64(8, 10, true)), /spatial index does not match/);
});
