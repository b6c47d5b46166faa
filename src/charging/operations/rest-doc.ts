/**
 * What the OpenAPI document says of the charging REST answers beyond the operations' JSON
 * outputs: the GeoJSON forms (generated from the same site schema), the cache headers, the
 * shared error answers.
 * @module
 */
import { ERROR_REF, jsonSchemaOf, type OpenApiResponse } from "../../shared/http/openapi.ts";
import { AttributionOutput, PageOutput, SiteOutput } from "./outputs.ts";

export const errorDoc = (description: string): OpenApiResponse => ({ description, schema: ERROR_REF });

export const NOT_FOUND_DOC = errorDoc("NOT_FOUND: unknown, closed or malformed id");

export const CACHE_HEADERS = {
  etag: "Entity tag of this answer for this data cut (send it back in if-none-match)",
  "cache-control": "public, max-age=300 (private when a key gate is on)",
};

const attribution = jsonSchemaOf(AttributionOutput, "output");

const feature = {
  type: "object",
  required: ["type", "id", "geometry", "properties"],
  properties: {
    type: { const: "Feature" },
    id: { type: "string" },
    geometry: {
      type: "object",
      required: ["type", "coordinates"],
      properties: {
        type: { const: "Point" },
        coordinates: { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2 },
      },
    },
    properties: jsonSchemaOf(SiteOutput, "output"),
  },
};

/** One site as GeoJSON, its credit line a foreign member. */
export const FEATURE = {
  ...feature,
  required: [...feature.required, "attribution"],
  properties: { ...feature.properties, attribution },
};

/** A page of sites as GeoJSON; page and credit lines ride along as foreign members (RFC 7946 6.1). */
export const FEATURE_COLLECTION = {
  type: "object",
  required: ["type", "features", "page", "attribution"],
  properties: {
    type: { const: "FeatureCollection" },
    features: { type: "array", items: feature },
    page: jsonSchemaOf(PageOutput, "output"),
    attribution: { type: "array", items: attribution, description: "Credit lines to show with the data (a foreign member)" },
  },
};
