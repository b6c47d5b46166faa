/**
 * gzip through one deflate stream reused from answer to answer: each answer is compressed
 * whole in one synchronous call on the stream's native handle (what `gzipSync` does inside),
 * then the handle is reset for the next, so no stream object, native state or output buffer
 * is made per answer. The handle (`_handle.writeSync`, `_writeState`, `reset`) is node:zlib's
 * own machinery, not its documented API: it is checked once (a round trip through
 * `gunzipSync`), and whenever it is missing, fails, or an answer's output does not fit the
 * scratch buffer, the caller falls back to `gzipSync`.
 * @module
 */
import { constants, createGzip, type Gzip, gunzipSync } from "node:zlib";

/** The native handle's synchronous write, as zlib's own `processChunkSync` calls it. */
interface ZlibHandle {
  writeSync(flush: number, input: Uint8Array, inOffset: number, inLength: number, out: Uint8Array, outOffset: number, outLength: number): void;
  reset(): void;
}

/** What a stream holds of its handle; [0] is the output room left after a write, [1] the input left. */
interface Internals {
  _handle?: ZlibHandle;
  _writeState?: Uint32Array;
}

/** Output room per answer (compressed): a larger answer's output goes through `gzipSync`. */
const SCRATCH_BYTES = 256 * 1024;

/** The gzip member of `bytes`, or undefined when this path cannot make it (use `gzipSync`). */
export type ReusedGzip = (bytes: Uint8Array) => Uint8Array<ArrayBuffer> | undefined;

const SAMPLE = new TextEncoder().encode('{"data":[{"id":"ocm:1","name":"A"},{"id":"ocm:2","name":"A"}]}');

/** A compressor over one reused stream at `level`; one that answers undefined when the handle is not there. */
export function createReusedGzip(level: number, scratchBytes = SCRATCH_BYTES): ReusedGzip {
  let stream: Gzip | undefined;
  const scratch = new Uint8Array(scratchBytes);

  const open = (): { handle: ZlibHandle; state: Uint32Array } | undefined => {
    stream ??= createGzip({ level });
    // A failing native write destroys the stream at once (zlib's onerror handler) and emits
    // 'error' on a later tick: the listener keeps that from crashing the process, and
    // `destroyed` is what the write is checked by.
    if (stream.listenerCount("error") === 0) stream.on("error", () => {});
    const { _handle: handle, _writeState: state } = stream as unknown as Internals;
    if (typeof handle?.writeSync !== "function" || typeof handle.reset !== "function" || !(state instanceof Uint32Array)) return undefined;
    return { handle, state };
  };

  const compress: ReusedGzip = (bytes) => {
    const native = open();
    if (!native) return undefined;
    native.handle.writeSync(constants.Z_FINISH, bytes, 0, bytes.byteLength, scratch, 0, scratch.byteLength);
    const [roomLeft = 0, inputLeft = 0] = native.state;
    if (stream?.destroyed === true) {
      // A fresh stream for the next answer; this one goes through gzipSync.
      stream = undefined;
      return undefined;
    }
    native.handle.reset();
    // Output that filled the scratch buffer may be cut short: gzipSync makes it instead.
    if (roomLeft === 0 || inputLeft !== 0) return undefined;
    return scratch.slice(0, scratchBytes - roomLeft);
  };

  // The handle must make what gzipSync makes, or it is not used at all.
  const sample = compress(SAMPLE);
  const works = sample !== undefined && Buffer.from(gunzipSync(sample)).equals(Buffer.from(SAMPLE));
  return works ? compress : () => undefined;
}
