/**
 * Markup escaped by construction, as `hono/html` does it: `html\`...\`` escapes every value it
 * interpolates unless the value is markup this module made (another `html` result, or text
 * passed through `raw()` on purpose). Arrays are joined; `undefined`, `null` and `false` write
 * nothing. A crawled title or URL therefore cannot become markup by being forgotten.
 * @module
 */

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text or an attribute value, escaped for any HTML context that quotes its attributes. */
function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** Markup that is already safe: made by `html`, or declared trusted with `raw`. */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

/** Trusted markup the caller vouches for (the report's own style and script): never crawled text. */
export const raw = (markup: string): Html => new Html(markup);

function part(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(part).join("");
  if (value === undefined || value === null || value === false) return "";
  return esc(value);
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += part(values[i]) + (strings[i + 1] ?? "");
  return new Html(out);
}

/**
 * Data for the report's script, as the text of a `<script type="application/json">`: `<` is
 * written as `\u003c` so no string in it can close the element, and the line separators
 * JavaScript once refused are escaped too.
 */
export function jsonData(data: unknown): Html {
  return raw(JSON.stringify(data).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029"));
}
