/**
 * Growable typed columns for the snapshot writer: rows arrive one by one (an import streams
 * them), so each column doubles its buffer as it fills instead of holding JS arrays of boxed values.
 * @module
 */

type Typed = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;
type TypedConstructor<T extends Typed> = { new (length: number): T; BYTES_PER_ELEMENT: number };

export class Column<T extends Typed> {
  #data: T;
  #length = 0;
  readonly #make: TypedConstructor<T>;

  constructor(make: TypedConstructor<T>, capacity = 1024) {
    this.#make = make;
    this.#data = new make(capacity);
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    if (this.#length === this.#data.length) this.#grow(this.#length + 1);
    this.#data[this.#length++] = value;
  }

  get(i: number): number {
    return this.#data[i] as number;
  }

  /** The values in `order` (row numbers), as a fresh array of the column's type. */
  permuted(order: Uint32Array, width = 1): T {
    const out = new this.#make(order.length * width);
    if (width === 1) {
      for (let k = 0; k < order.length; k++) out[k] = this.#data[order[k] as number] as number;
      return out;
    }
    for (let k = 0; k < order.length; k++) {
      const from = (order[k] as number) * width;
      out.set(this.#data.subarray(from, from + width) as never, k * width);
    }
    return out;
  }

  /** The filled part (a view, valid until the next push). */
  view(): T {
    return this.#data.subarray(0, this.#length) as T;
  }

  #grow(needed: number): void {
    const next = new this.#make(Math.max(needed, this.#data.length * 2));
    next.set(this.#data as never);
    this.#data = next;
  }
}

/** UTF-8 strings stored once each: ids in first-seen order, bytes packed in one buffer. */
export class StringTable {
  readonly #ids = new Map<string, number>();
  readonly #values: string[] = [];
  readonly #offsets = new Column(Uint32Array);
  #bytes = new Uint8Array(1 << 16);
  #size = 0;
  readonly #encoder = new TextEncoder();

  constructor() {
    this.#offsets.push(0);
  }

  get count(): number {
    return this.#values.length;
  }

  id(text: string): number {
    let id = this.#ids.get(text);
    if (id !== undefined) return id;
    id = this.#values.length;
    const room = text.length * 3;
    if (this.#size + room > this.#bytes.length) {
      const next = new Uint8Array(Math.max(this.#size + room, this.#bytes.length * 2));
      next.set(this.#bytes.subarray(0, this.#size));
      this.#bytes = next;
    }
    this.#size += this.#encoder.encodeInto(text, this.#bytes.subarray(this.#size)).written;
    this.#offsets.push(this.#size);
    this.#ids.set(text, id);
    this.#values.push(text);
    return id;
  }

  value(id: number): string {
    return this.#values[id] as string;
  }

  offsets(): Uint32Array {
    return this.#offsets.view();
  }

  bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.#size);
  }
}
