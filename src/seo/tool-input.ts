/**
 * Input fields every SEO tool shares.
 * @module
 */
import { v } from "../../deps.ts";

/** `concise` (default): the high-signal summary first, for agents; `detailed`: the full payload. */
export const responseFormat = v.optional(
  v.pipe(
    v.picklist(["concise", "detailed"]),
    v.description(
      "concise (default): high-signal summary first; detailed: the full payload. Both carry provenance labels",
    ),
  ),
  "concise",
);

export type ResponseFormat = "concise" | "detailed";

/** A text of `min` to `max` characters, with its description for agents. */
export const boundedText = (min: number, max: number, description: string) =>
  v.pipe(v.string(), v.minLength(min), v.maxLength(max), v.description(description));

/** A yes/no input, with its description for agents. */
export const yesNo = (description: string) => v.pipe(v.boolean(), v.description(description));

/** A whole number from `min` to `max`, with its description for agents. */
export const wholeNumber = (min: number, max: number, description: string) =>
  v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max), v.description(description));
