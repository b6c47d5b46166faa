/**
 * Headers held in a plain map. A `LightHeaders` is a `Headers` (its prototype chain is
 * Headers', so `instanceof Headers` holds) whose every member is its own: no undici argument
 * conversion per call. Prepared answers and bodiless requests carry one, since constructing,
 * filling and iterating an undici Headers cost more than the rest of a kept answer; a
 * runtime adapter reads the header lines off it with `linesOf`. The rules are the Fetch
 * standard's: names are tokens, compared case-insensitively and listed lowercase in name
 * order; values lose leading and trailing whitespace and may hold no NUL, CR or LF; a repeated
 * name is joined with ", " except `set-cookie`, whose values stay apart (`getSetCookie`).
 * @module
 */

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const EDGE_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const NOT_A_VALUE = /[\0\r\n]|[^\0-\xff]/;
const COOKIE = "set-cookie";

/**
 * Names already checked, as written to their lowercase form: an answer sets the same dozen
 * names every time, and testing and lowering each cost more than a lookup. Bounded, since a
 * request's headers come from clients: past the bound a name is checked every time.
 */
const checkedNames = new Map<string, string>();
const NAMES_KEPT = 256;

function nameOf(name: string, method: string): string {
  const text = String(name);
  const known = checkedNames.get(text);
  if (known !== undefined) return known;
  if (!TOKEN.test(text)) throw new TypeError(`Headers.${method}: "${text}" is an invalid header name.`);
  const lower = text.toLowerCase();
  if (checkedNames.size < NAMES_KEPT) checkedNames.set(text, lower);
  return lower;
}

/** Tab, LF, CR, space: what a header value loses at either end. */
const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

function valueOf(value: string, method: string): string {
  let text = String(value);
  // Most values have no space at either end: the replace (a new string) only when one does.
  if (text !== "" && (isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1)))) text = text.replace(EDGE_SPACE, "");
  if (NOT_A_VALUE.test(text)) throw new TypeError(`Headers.${method}: "${text}" is an invalid header value.`);
  return text;
}

type Init = Headers | Iterable<readonly [string, string]> | Record<string, string> | string[][];

export class LightHeaders implements Headers {
  readonly #values = new Map<string, string>();
  #cookies: string[] = [];

  constructor(init?: Init) {
    if (init === undefined) return;
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly string[]>) {
        if (pair.length !== 2) throw new TypeError("Headers constructor: expected name/value pair to be length 2.");
        this.append(pair[0] as string, pair[1] as string);
      }
    } else {
      for (const name of Object.keys(init)) this.append(name, (init as Record<string, string>)[name] as string);
    }
  }

  append(name: string, value: string): void {
    const key = nameOf(name, "append");
    const text = valueOf(value, "append");
    if (key === COOKIE) this.#cookies.push(text);
    const had = this.#values.get(key);
    this.#values.set(key, had === undefined ? text : `${had}, ${text}`);
  }

  set(name: string, value: string): void {
    const key = nameOf(name, "set");
    const text = valueOf(value, "set");
    if (key === COOKIE) this.#cookies = [text];
    this.#values.set(key, text);
  }

  delete(name: string): void {
    const key = nameOf(name, "delete");
    if (key === COOKIE) this.#cookies = [];
    this.#values.delete(key);
  }

  get(name: string): string | null {
    return this.#values.get(nameOf(name, "get")) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(nameOf(name, "has"));
  }

  getSetCookie(): string[] {
    return [...this.#cookies];
  }

  /** Every header line in name order, `set-cookie` once per cookie. */
  #sorted(): [string, string][] {
    const names = [...this.#values.keys()].sort();
    const out: [string, string][] = [];
    for (const name of names) {
      if (name === COOKIE) for (const cookie of this.#cookies) out.push([name, cookie]);
      else out.push([name, this.#values.get(name) as string]);
    }
    return out;
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.#sorted()) callback.call(thisArg, value, name, this);
  }

  entries(): HeadersIterator<[string, string]> {
    return this.#sorted()[Symbol.iterator]() as HeadersIterator<[string, string]>;
  }

  keys(): HeadersIterator<string> {
    return this.#sorted().map(([name]) => name)[Symbol.iterator]() as HeadersIterator<string>;
  }

  values(): HeadersIterator<string> {
    return this.#sorted().map(([, value]) => value)[Symbol.iterator]() as HeadersIterator<string>;
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }

  /** The header lines as node:http's `writeHead` takes them: name, value, name, value, ... */
  lines(): string[] {
    const out: string[] = [];
    for (const [name, value] of this.#values) {
      if (name !== COOKIE) out.push(name, value);
      else for (const cookie of this.#cookies) out.push(name, cookie);
    }
    return out;
  }
}

// Not constructed through Headers (that would build undici's own state); only its prototype.
Object.setPrototypeOf(LightHeaders.prototype, Headers.prototype);

/** The header lines of `headers` (name, value, ...), read without iterating when it is light. */
export function linesOf(headers: Headers): string[] {
  if (headers instanceof LightHeaders) return headers.lines();
  const out: string[] = [];
  headers.forEach((value, name) => {
    if (name !== COOKIE) out.push(name, value);
  });
  for (const cookie of headers.getSetCookie()) out.push(COOKIE, cookie);
  return out;
}
