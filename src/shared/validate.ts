/**
 * Parsing untrusted values with a valibot schema, failing the one way every transport reports:
 * INVALID_ARGUMENTS naming each field (its dot path) and its rule.
 * @module
 */
import { v } from "../../deps.ts";
import { ApiError } from "./errors.ts";

/* eslint-disable @typescript-eslint/no-explicit-any -- tables hold schemas of any entries */
/** An object schema of any entries: a tool's input, a REST query, path parameters. */
export type AnyObjectSchema = v.ObjectSchema<any, any> | v.StrictObjectSchema<any, any> | v.LooseObjectSchema<any, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * `path: message; path: message`. A rule of the whole value has no path, and a message that
 * already starts with its field's name ("limit must be ...") is not prefixed again.
 */
function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .map((issue) => {
      const path = v.getDotPath(issue);
      const named = path !== null && issue.message.startsWith(`${path.split(".")[0]} `);
      return path && !named ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/** `value` parsed by `schema`; INVALID_ARGUMENTS (with `advice` appended) when it does not fit. */
export function parseArguments<S extends v.GenericSchema>(schema: S, value: unknown, advice = ""): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) throw new ApiError("INVALID_ARGUMENTS", `${describeIssues(parsed.issues)}${advice}`);
  return parsed.output;
}
