/**
 * Node I/O of `charging import`: files stream from disk (never read whole), outputs are
 * written as bytes or as text pieces in order, and zlib's CRC-32 checksums the snapshot.
 * An output is written beside its path and renamed over it: a server serving that path
 * (`CHARGING_DATA`) never sees a half-written file, and swaps to the new one whole.
 * @module
 */
import { createReadStream } from "node:fs";
import { rename, rm, stat, writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import type { ImportIo } from "../../../src/charging/mod.ts";

/** Writes `data` to a temporary file beside `path`, then renames it over `path`. */
export async function replaceFile(path: string, data: Uint8Array | Iterable<string>): Promise<void> {
  const temporary = `${path}.${process.pid}-${Date.now()}.partial`;
  try {
    await writeFile(temporary, data);
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

export function nodeImportIo(): ImportIo {
  return {
    async openFile(path) {
      const { size } = await stat(path);
      const stream = Readable.toWeb(createReadStream(path, { highWaterMark: 1 << 20 })) as ReadableStream<Uint8Array>;
      return { size, stream };
    },
    writeFile: replaceFile,
    stderr: (line) => process.stderr.write(`${line}\n`),
    stdout: (line) => process.stdout.write(`${line}\n`),
    crc32: (bytes) => crc32(bytes),
  };
}
