/**
 * Decoding a fetched body the way browsers pick its encoding for a stream (WHATWG HTML
 * "determining the character encoding", simplified): a byte order mark first, then the
 * Content-Type charset, then a `<meta charset>` or `<meta http-equiv=content-type>` in the
 * first 1024 bytes, else UTF-8. Only those first bytes wait for the decision; the rest is
 * decoded as it arrives. Sites that declare their legacy encoding only in the markup would
 * otherwise have every title and description audited as mojibake.
 * @module
 */

const PRESCAN_BYTES = 1024;
const BOM_BYTES = 3;
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i;
const HEADER_CHARSET = /charset\s*=\s*["']?([\w.:-]+)/i;

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

function labelled(label: string | undefined): TextDecoder | undefined {
  if (label === undefined) return undefined;
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

function metaDecoder(head: Uint8Array): TextDecoder | undefined {
  const found = labelled(META_CHARSET.exec(new TextDecoder("windows-1252").decode(head))?.[1]);
  // A meta tag can only be read because the bytes are ASCII-compatible, so UTF-16 there means UTF-8.
  return found?.encoding.startsWith("utf-16") ? new TextDecoder("utf-8") : found;
}

function joined(head: Uint8Array, chunk: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(head.byteLength + chunk.byteLength);
  bytes.set(head);
  bytes.set(chunk, head.byteLength);
  return bytes;
}

/** Decodes a body chunk by chunk; `write` returns "" while the first bytes still decide the encoding. */
export class StreamDecoder {
  readonly #declared: string | undefined;
  #head: Uint8Array = new Uint8Array(0);
  #decoder: TextDecoder | undefined;

  constructor(contentType: string | null) {
    this.#declared = HEADER_CHARSET.exec(contentType ?? "")?.[1];
  }

  write(chunk: Uint8Array): string {
    if (this.#decoder) return this.#decoder.decode(chunk, { stream: true });
    this.#head = this.#head.byteLength === 0 ? chunk : joined(this.#head, chunk);
    this.#decoder = this.#decide(false);
    return this.#decoder ? this.#flushHead(this.#decoder) : "";
  }

  /**
   * The text still held back (a prescan window, a partial character), after `last` if given.
   * A body that arrives as one chunk is decoded in one call, off the slower streaming path.
   */
  end(last?: Uint8Array): string {
    if (last && !this.#decoder && this.#head.byteLength === 0) {
      this.#head = last;
      const decoder = this.#decide(true) ?? new TextDecoder("utf-8");
      this.#decoder = decoder;
      this.#head = new Uint8Array(0);
      return decoder.decode(last);
    }
    if (last) return this.write(last) + this.end();
    if (this.#decoder) return this.#decoder.decode();
    const decoder = this.#decide(true) ?? new TextDecoder("utf-8");
    this.#decoder = decoder;
    return this.#flushHead(decoder) + decoder.decode();
  }

  /** The encoding, once the bytes so far (all of them when `final`) settle it. */
  #decide(final: boolean): TextDecoder | undefined {
    const head = this.#head;
    if (head.byteLength < BOM_BYTES && !final) return undefined;
    const bom = bomEncoding(head);
    if (bom) return new TextDecoder(bom);
    const declared = labelled(this.#declared);
    if (declared) return declared;
    if (head.byteLength < PRESCAN_BYTES && !final) return undefined;
    return metaDecoder(head.subarray(0, PRESCAN_BYTES)) ?? new TextDecoder("utf-8");
  }

  #flushHead(decoder: TextDecoder): string {
    const text = decoder.decode(this.#head, { stream: true });
    this.#head = new Uint8Array(0);
    return text;
  }
}
