/**
 * JSON Schemas of the MCP tools' structured results. SDK clients validate results against
 * them, so they list what is always present and leave room for fields added later.
 * @module
 */

const nullable = (type: string) => ({ type: [type, "null"] });

export const attributionSchema = {
  type: "object",
  properties: { text: { type: "string" }, url: { type: "string" } },
  required: ["text", "url"],
};

export const siteSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "ocm:<n>, osm:node/<n>, osm:way/<n> or osm:relation/<n>" },
    source: { type: "string", enum: ["ocm", "osm"] },
    licence: { type: "string" },
    name: nullable("string"),
    lat: { type: "number" },
    lon: { type: "number" },
    operator: nullable("string"),
    network: nullable("string"),
    connectors: {
      type: "array",
      items: {
        type: "object",
        properties: {
          type: { type: "string" },
          label: { type: "string" },
          powerKw: nullable("number"),
          quantity: nullable("number"),
          current: nullable("string"),
        },
        required: ["type", "label"],
      },
    },
    maxPowerKw: nullable("number"),
    status: { type: "string" },
    statusKind: { type: "string" },
    lastUpdated: nullable("string"),
    sourceUrl: { type: "string" },
    distanceKm: { type: "number" },
  },
  required: ["id", "source", "licence", "lat", "lon", "connectors", "status"],
};

export const searchOutputSchema = {
  type: "object",
  properties: {
    data: { type: "array", items: siteSchema },
    page: {
      type: "object",
      properties: { limit: { type: "integer" }, offset: { type: "integer" }, total: { type: "integer" } },
      required: ["limit", "offset", "total"],
    },
    attribution: { type: "array", items: attributionSchema },
  },
  required: ["data", "page", "attribution"],
};

export const siteOutputSchema = {
  type: "object",
  properties: { data: siteSchema, attribution: attributionSchema },
  required: ["data", "attribution"],
};

export const statusOutputSchema = {
  type: "object",
  properties: {
    data: {
      type: "object",
      properties: {
        id: { type: "string" },
        status: { type: "string" },
        retrievedAt: { type: "string" },
        source: { type: "string" },
        stale: { type: "boolean" },
        staleReason: { type: "string" },
        attribution: attributionSchema,
      },
      required: ["id", "status", "retrievedAt", "source", "stale", "attribution"],
    },
  },
  required: ["data"],
};
