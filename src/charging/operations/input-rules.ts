/**
 * The rules both faces of a charging input share, so the typed inputs (MCP, and REST after
 * mapping) and the REST query strings state each limit once: the page and radius limits, a
 * range or integer rule with its message, a schema with its description, and strict objects
 * (a misspelt argument is refused rather than silently widening a search).
 * @module
 */
import { v } from "../../../deps.ts";

export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;
export const OFFSET_MAX = 100_000;
export const CONNECTOR_MAX = 64;
export const RADIUS_MAX_KM = 500;
export const RADIUS_DEFAULT_KM = 10;

export const ID_HELP = "ids look like ocm:123, osm:node/123 or osm:way/123";

export const CONNECTOR_HELP = `Case-insensitive substring of a connector type or label (at most ${CONNECTOR_MAX} characters), e.g. ccs, type2, chademo`;

export const described = <S extends v.GenericSchema>(schema: S, text: string) => v.pipe(schema, v.description(text));

export const between = (min: number, max: number, message: string) =>
  v.pipe(v.number(), v.minValue(min, message), v.maxValue(max, message));

export const integer = (name: string, min: number, max: number) => {
  const message = `${name} must be an integer from ${min} to ${max}`;
  return v.pipe(v.number(), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
};

const unknownArgument = (issue: v.BaseIssue<unknown>) =>
  issue.expected === "never" ? "unknown argument; use only the names in the input schema" : issue.message;

export const strict = <E extends v.ObjectEntries>(entries: E) => v.strictObject(entries, unknownArgument);

export const radiusRule = v.pipe(
  v.number(),
  v.gtValue(0, `radiusKm must be more than 0 and at most ${RADIUS_MAX_KM}`),
  v.maxValue(RADIUS_MAX_KM, `radiusKm must be more than 0 and at most ${RADIUS_MAX_KM}`),
);

export const minPowerRule = v.pipe(v.number(), v.minValue(0, "minPower must be at least 0 kW"));
