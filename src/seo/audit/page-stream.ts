/**
 * Facts of a page's text as a stream, whatever its chunks: the line of an offset (for errors a
 * user looks up in the source) and a hash of the whole document (exact duplicates).
 * @module
 */

/** Lines of the text written so far, so a parser offset in the chunk being parsed reads as a line. */
export class LineCounter {
  #before = 0;
  #start = 0;
  #chunk = "";

  /** Call before the parser sees `text`. */
  begin(text: string): void {
    this.#chunk = text;
  }

  /** Call once the parser is done with the chunk. */
  end(): void {
    this.#before += newlines(this.#chunk, this.#chunk.length);
    this.#start += this.#chunk.length;
    this.#chunk = "";
  }

  /** 1-based line of `offset`; an offset in an earlier chunk reads as that chunk's last line. */
  lineAt(offset: number): number {
    return 1 + this.#before + newlines(this.#chunk, Math.max(0, offset - this.#start));
  }
}

function newlines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/**
 * A 32-bit FNV-1a lane over the document's characters and a second lane summing its states
 * (Fletcher's idea: one add per character instead of a second multiply), read as one 53-bit
 * number: equal for identical documents (Screaming Frog's exact duplicates hash the whole HTML
 * too), 8 bytes kept. Not collision-proof against a crafted page; a false match only pairs two
 * pages as duplicates.
 */
export class DocumentHash {
  readonly #lanes = Int32Array.of(0x811c9dc5, 0);

  add(text: string): void {
    const lanes = this.#lanes;
    let a = lanes[0] as number;
    let b = lanes[1] as number;
    for (let i = 0; i < text.length; i++) {
      a = Math.imul(a ^ text.charCodeAt(i), 0x01000193);
      b = (b + a) | 0;
    }
    lanes[0] = a;
    lanes[1] = b;
  }

  digest(): number {
    // The mixed lane's low 21 bits above the sum's 32.
    return ((this.#lanes[0] as number) & 0x1fffff) * 0x100000000 + ((this.#lanes[1] as number) >>> 0);
  }
}
