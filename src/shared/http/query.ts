/**
 * A REST query string as a record for a valibot object schema: every parameter at most once,
 * none empty, none unknown (a typo must not silently fall back to a default). Failures are
 * INVALID_ARGUMENTS naming the parameter and the rule. A query string that is not well
 * percent-encoded UTF-8 is refused whole, before any route reads it (the pipeline checks it).
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../errors.ts";
import { type AnyObjectSchema, parseArguments } from "../validate.ts";

/** A query's schema: an object of string entries. */
export type QuerySchema = AnyObjectSchema;

const invalid = (message: string) => new ApiError("INVALID_ARGUMENTS", message);

/**
 * Throws INVALID_ARGUMENTS when `search` (a URL's `?…` part) holds a `%` not followed by two hex
 * digits, or escapes that decode to no UTF-8. `URLSearchParams` would take either silently as
 * text (`%zz` as is, `%FF` as U+FFFD), and a filter would then search for a word nobody sent.
 */
export function assertWellEncoded(search: string): void {
  if (!search.includes("%")) return;
  for (const part of search.slice(1).split("&")) {
    try {
      decodeURIComponent(part.replaceAll("+", " "));
    } catch {
      const name = part.split("=", 1)[0] ?? "";
      throw invalid(`Malformed percent-encoding in query parameter "${name.slice(0, 64)}": send UTF-8, with a literal % as %25`);
    }
  }
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const DIGITS = /^\d+$/;

/**
 * A query parameter that is a number: plain decimal text (`digits` for an integer), read as a
 * number and checked by `typed`, the rule the typed input holds. The OpenAPI document declares
 * it as `typed` says (a client sends `limit=20`, its generated type is a number); `message` is
 * the refusal of text that is no number.
 */
export const queryNumber = (typed: v.GenericSchema<number>, message: string, syntax: "digits" | "decimal" = "decimal") =>
  v.pipe(v.string(), v.regex(syntax === "digits" ? DIGITS : DECIMAL, message), v.transform(Number), typed);

/** A query parameter that is `true` or `false`, declared as a boolean. */
export const queryBoolean = (name: string, description: string) =>
  v.pipe(
    v.picklist(["true", "false"], `${name} must be true or false`),
    v.transform((text) => text === "true"),
    v.pipe(v.boolean(), v.description(description)),
  );

/** The parameters of `params` checked against `schema`'s entries, then parsed by it. */
export function parseQuery<S extends QuerySchema>(schema: S, params: URLSearchParams): v.InferOutput<S> {
  const known = Object.keys(schema.entries);
  const raw: Record<string, string> = {};
  for (const [name, value] of params) {
    if (!known.includes(name)) {
      if (known.length === 0) throw invalid("This route takes no query parameters");
      throw invalid(`Unknown query parameter "${name.slice(0, 64)}"; known: ${known.join(", ")}`);
    }
    if (name in raw) throw invalid(`${name} must be given at most once`);
    if (value === "") throw invalid(`${name} must not be empty; leave it out to use the default`);
    raw[name] = value;
  }
  return parseArguments(schema, raw);
}
