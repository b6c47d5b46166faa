/**
 * What the charging operations answer, as valibot schemas: the JSON Schemas of the MCP tools'
 * structured results and of the OpenAPI document are generated from them, so neither can
 * leave out a field the answers carry. Objects are open (no `additionalProperties: false`):
 * clients validating against them keep working when a field is added.
 * @module
 */
import { v } from "../../../deps.ts";
import { ACCESS_VALUES, STATUS_VALUES } from "../data/model.ts";

const { nullable } = v;
const text = nullable(v.string());

const AttributionOutput = v.object({ text: v.string(), url: v.string() });

const ConnectorOutput = v.object({
  type: v.string(),
  label: v.string(),
  powerKw: nullable(v.number()),
  quantity: nullable(v.number()),
  current: nullable(v.picklist(["AC", "DC"])),
});

const AddressOutput = v.object({
  line1: text,
  line2: text,
  town: text,
  region: text,
  postcode: text,
  countryCode: text,
});

/** Every field of `Site` (model.ts; meanings in DATA.md). */
const SiteOutput = v.object({
  id: v.pipe(v.string(), v.description("ocm:<n>, osm:node/<n>, osm:way/<n> or osm:relation/<n>")),
  source: v.picklist(["ocm", "osm"]),
  licence: v.string(),
  attributionKey: v.string(),
  name: text,
  lat: v.number(),
  lon: v.number(),
  address: nullable(AddressOutput),
  operator: text,
  network: text,
  connectors: v.array(ConnectorOutput),
  maxPowerKw: nullable(v.number()),
  capacity: nullable(v.number()),
  access: nullable(v.picklist(ACCESS_VALUES)),
  fee: nullable(v.boolean()),
  usageCost: text,
  openingHours: text,
  status: v.picklist(STATUS_VALUES),
  statusKind: v.literal("registry"),
  lastUpdated: text,
  sourceUrl: v.string(),
  distanceKm: v.optional(v.pipe(v.number(), v.description("Only on near searches: km from the point"))),
  alongKm: v.optional(v.pipe(v.number(), v.description("Only on route searches: km along the route to the site's nearest projection"))),
  offRouteKm: v.optional(v.pipe(v.number(), v.description("Only on route searches: km from the site to the route"))),
});

const PageOutput = v.object({
  limit: v.pipe(v.number(), v.integer()),
  offset: v.pipe(v.number(), v.integer()),
  total: v.pipe(v.number(), v.integer()),
  nextCursor: v.optional(
    v.pipe(v.string(), v.description("Syncs only (updatedSince or cursor), when more sites follow: pass it as cursor for the next page")),
  ),
});

export const SearchOutput = v.object({
  data: v.array(SiteOutput),
  page: PageOutput,
  attribution: v.array(AttributionOutput),
});

export const SiteAnswerOutput = v.object({ data: SiteOutput, attribution: AttributionOutput });

export const StatusOutput = v.object({
  data: v.object({
    id: v.string(),
    status: v.picklist(STATUS_VALUES),
    kind: v.picklist(["live", "registry"]),
    retrievedAt: v.string(),
    source: v.string(),
    stale: v.boolean(),
    staleReason: v.optional(v.string()),
    attribution: AttributionOutput,
  }),
});

/** A site as a GeoJSON Feature: its id, a Point, and every site field as properties. */
const FeatureOutput = v.object({
  type: v.literal("Feature"),
  id: v.string(),
  geometry: v.object({ type: v.literal("Point"), coordinates: v.tuple([v.number(), v.number()]) }),
  properties: SiteOutput,
});

/** One site as GeoJSON, its credit line a foreign member. */
export const SiteFeatureOutput = v.object({ ...FeatureOutput.entries, attribution: AttributionOutput });

/** A page of sites as GeoJSON; page and credit lines ride along as foreign members (RFC 7946 6.1). */
export const FeatureCollectionOutput = v.object({
  type: v.literal("FeatureCollection"),
  features: v.array(FeatureOutput),
  page: PageOutput,
  attribution: v.array(AttributionOutput),
});

const counted = <E extends v.ObjectEntries>(entries: E) => v.array(v.object({ ...entries, count: v.pipe(v.number(), v.integer()) }));

/** Every value the exact filters take, each with its count of sites in the loaded data set. */
export const ReferenceOutput = v.object({
  data: v.object({
    connectorTypes: counted({ type: v.string(), name: v.string(), current: nullable(v.picklist(["AC", "DC"])) }),
    currentTypes: counted({ current: v.picklist(["AC", "DC"]) }),
    operators: counted({ id: v.string(), name: v.string() }),
    countries: counted({ code: v.string() }),
    access: counted({ value: v.string() }),
    statuses: counted({ value: v.picklist(STATUS_VALUES) }),
  }),
});

const count = v.pipe(v.number(), v.integer());

/** One file the import read, as `charging import` records it (a data set made by hand may say less, or more). */
const ImportedFileOutput = v.looseObject({
  file: v.string(),
  format: v.optional(v.string()),
  read: v.optional(count),
  kept: v.optional(count),
  dropped: v.optional(v.pipe(v.record(v.string(), count), v.description("Rows left out, by reason"))),
});

/** The loaded data set: its id, when it was imported, and its sources with their licences and counts. */
export const DatasetOutput = v.object({
  data: v.object({
    id: v.pipe(v.string(), v.description("Names this exact snapshot (entity tags are built on it)")),
    importedAt: v.string(),
    sites: v.pipe(v.number(), v.integer()),
    sources: v.array(
      v.object({
        key: v.pipe(v.string(), v.description("The data partition: source, provider and licence")),
        source: v.picklist(["ocm", "osm"]),
        licence: v.string(),
        count: v.pipe(v.number(), v.integer()),
        attribution: AttributionOutput,
      }),
    ),
    files: v.pipe(v.array(ImportedFileOutput), v.description("The files the import read, with rows read and kept")),
  }),
});
