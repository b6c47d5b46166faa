/**
 * Node I/O of `charging import`: files stream from disk (never read whole), outputs are
 * written as bytes or as text pieces in order, and zlib's CRC-32 checksums the snapshot.
 * @module
 */
import { createReadStream } from "node:fs";
import { stat, writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import type { ImportIo } from "../../../src/charging/mod.ts";

export function nodeImportIo(): ImportIo {
  return {
    async openFile(path) {
      const { size } = await stat(path);
      const stream = Readable.toWeb(createReadStream(path, { highWaterMark: 1 << 20 })) as ReadableStream<Uint8Array>;
      return { size, stream };
    },
    writeFile: (path, data) => writeFile(path, data),
    stderr: (line) => process.stderr.write(`${line}\n`),
    stdout: (line) => process.stdout.write(`${line}\n`),
    crc32: (bytes) => crc32(bytes),
  };
}
