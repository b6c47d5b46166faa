/**
 * Decoding a fetched body the way browsers pick its encoding (WHATWG HTML "determining the
 * character encoding", simplified): a byte order mark first, then the Content-Type charset,
 * then a `<meta charset>` or `<meta http-equiv=content-type>` in the first 1024 bytes, else UTF-8.
 * Sites that declare their legacy encoding only in the markup would otherwise have every
 * title and description audited as mojibake.
 * @module
 */

const PRESCAN_BYTES = 1024;
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i;
const HEADER_CHARSET = /charset\s*=\s*["']?([\w.:-]+)/i;

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

function decoder(label: string | undefined): TextDecoder | undefined {
  if (label === undefined) return undefined;
  try {
    const found = new TextDecoder(label);
    // A meta tag can only be read because the bytes are ASCII-compatible, so UTF-16 there means UTF-8.
    return found.encoding.startsWith("utf-16") ? new TextDecoder("utf-8") : found;
  } catch {
    return undefined;
  }
}

function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, PRESCAN_BYTES));
  return META_CHARSET.exec(head)?.[1];
}

/** The text of `bytes` served with `contentType`. */
export function decodeBody(bytes: Uint8Array, contentType: string | null): string {
  const bom = bomEncoding(bytes);
  if (bom) return new TextDecoder(bom).decode(bytes);
  const declared = HEADER_CHARSET.exec(contentType ?? "")?.[1];
  let chosen: TextDecoder | undefined;
  try {
    chosen = declared === undefined ? undefined : new TextDecoder(declared);
  } catch {
    chosen = undefined;
  }
  chosen ??= decoder(metaCharset(bytes)) ?? new TextDecoder("utf-8");
  return chosen.decode(bytes);
}
