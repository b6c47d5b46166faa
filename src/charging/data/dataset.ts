/**
 * The shipped dataset file (`fixtures/charging/sites.json`): a header (import date, sources,
 * counts, one partition per source/provider/licence with its attribution) and compact site
 * rows. Compact means null fields and values derivable from others are left out: `source`
 * (the id prefix), `licence` (the row's partition), `statusKind`, `sourceUrl`, `maxPowerKw`.
 * `parseDataset` validates the file and restores full `Site` objects.
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { LICENCE_ALLOWLIST } from "./licence.ts";
import { ACCESS_VALUES, type Address, type Connector, type Site, STATUS_VALUES } from "./model.ts";

export const DATASET_FORMAT = "charging-sites/1";

const ID = /^(ocm:[1-9]\d{0,11}|osm:(node|way|relation)\/[1-9]\d{0,15})$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z$/;

const text = v.optional(v.pipe(v.string(), v.minLength(1)));
const kw = v.optional(v.pipe(v.number(), v.finite(), v.minValue(0)));

const ConnectorSchema = v.strictObject({
  type: v.pipe(v.string(), v.regex(/^[a-z0-9_]+$/)),
  label: v.string(),
  powerKw: kw,
  quantity: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  current: v.optional(v.picklist(["AC", "DC"])),
});

const AddressSchema = v.strictObject({
  line1: text,
  line2: text,
  town: text,
  region: text,
  postcode: text,
  countryCode: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/))),
});

const SiteSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(ID, "id must be ocm:<n> or osm:node|way|relation/<n>")),
  attributionKey: v.pipe(v.string(), v.minLength(1)),
  name: text,
  lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
  lon: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
  address: v.optional(AddressSchema),
  operator: text,
  network: text,
  connectors: v.optional(v.array(ConnectorSchema), []),
  capacity: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  access: v.optional(v.picklist(ACCESS_VALUES)),
  fee: v.optional(v.boolean()),
  usageCost: text,
  openingHours: text,
  status: v.picklist(STATUS_VALUES),
  lastUpdated: v.optional(v.pipe(v.string(), v.regex(ISO, "lastUpdated must be ISO 8601 UTC"))),
});

const AttributionSchema = v.strictObject({ text: v.string(), url: v.string() });

const HeaderSchema = {
  format: v.literal(DATASET_FORMAT),
  importedAt: v.pipe(v.string(), v.regex(ISO)),
  sources: v.array(v.looseObject({ file: v.string() })),
  partitions: v.array(
    v.strictObject({
      key: v.string(),
      source: v.picklist(["ocm", "osm"]),
      licence: v.picklist(LICENCE_ALLOWLIST, "licence is not on the open-licence allowlist"),
      count: v.number(),
      attribution: AttributionSchema,
    }),
  ),
  counts: v.record(v.string(), v.number()),
};

const DatasetSchema = v.strictObject({ ...HeaderSchema, sites: v.array(SiteSchema) });

/** The header alone (the snapshot's HEAD section carries it too). */
export const DatasetHeaderSchema = v.strictObject(HeaderSchema);

type StoredSite = v.InferInput<typeof SiteSchema>;
export type DatasetHeader = Omit<v.InferOutput<typeof DatasetSchema>, "sites">;

/** The row's page at its source. */
export function sourceUrlFor(id: string): string {
  const [source, local = ""] = id.split(":", 2);
  return source === "ocm"
    ? `https://openchargemap.org/site/poi/details/${local}`
    : `https://www.openstreetmap.org/${local}`;
}

export function maxPower(connectors: readonly Connector[]): number | null {
  const known = connectors.map((c) => c.powerKw).filter((p): p is number => p !== null);
  return known.length > 0 ? Math.max(...known) : null;
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

function restoreAddress(a: v.InferOutput<typeof AddressSchema>): Address {
  return {
    line1: orNull(a.line1),
    line2: orNull(a.line2),
    town: orNull(a.town),
    region: orNull(a.region),
    postcode: orNull(a.postcode),
    countryCode: orNull(a.countryCode),
  };
}

type Partition = { source: Site["source"]; licence: string };

function restore(row: v.InferOutput<typeof SiteSchema>, partition: Partition): Site {
  const connectors: Connector[] = row.connectors.map((c) => ({
    type: c.type,
    label: c.label,
    powerKw: orNull(c.powerKw),
    quantity: orNull(c.quantity),
    current: orNull(c.current),
  }));
  return {
    id: row.id,
    source: partition.source,
    licence: partition.licence,
    attributionKey: row.attributionKey,
    name: orNull(row.name),
    lat: row.lat,
    lon: row.lon,
    address: row.address ? restoreAddress(row.address) : null,
    operator: orNull(row.operator),
    network: orNull(row.network),
    connectors,
    maxPowerKw: maxPower(connectors),
    capacity: orNull(row.capacity),
    access: orNull(row.access),
    fee: orNull(row.fee),
    usageCost: orNull(row.usageCost),
    openingHours: orNull(row.openingHours),
    status: row.status,
    statusKind: "registry",
    lastUpdated: orNull(row.lastUpdated),
    sourceUrl: sourceUrlFor(row.id),
  };
}

function fail(issues: v.BaseIssue<unknown>[]): never {
  const first = issues.slice(0, 3).map((i) => `${v.getDotPath(i) ?? "(root)"}: ${i.message}`);
  throw new ApiError("INVALID_DATA", `charging dataset is malformed (${DATASET_FORMAT}): ${first.join("; ")}`);
}

/** Validates a dataset file and returns its header and full site rows; throws INVALID_DATA when malformed. */
export function parseDatasetFile(json: unknown): { header: DatasetHeader; sites: Site[] } {
  const parsed = v.safeParse(DatasetSchema, json);
  if (!parsed.success) fail(parsed.issues);
  const { sites: rows, ...header } = parsed.output;
  const partitions = new Map(header.partitions.map((p) => [p.key, p]));
  const seen = new Set<string>();
  const malformed = (what: string) => new ApiError("INVALID_DATA", `charging dataset is malformed: ${what}`);
  const sites = rows.map((row, i) => {
    const partition = partitions.get(row.attributionKey);
    if (!partition) throw malformed(`sites.${i}.attributionKey ${row.attributionKey} has no partition`);
    if (!row.id.startsWith(`${partition.source}:`)) throw malformed(`sites.${i}.id ${row.id} is not from ${partition.source}`);
    if (seen.has(row.id)) throw malformed(`sites.${i}.id ${row.id} repeats`);
    seen.add(row.id);
    return restore(row, partition);
  });
  return { header, sites };
}

/** Validates the shipped dataset format and returns its sites. */
export function parseDataset(json: unknown): Site[] {
  return parseDatasetFile(json).sites;
}

const DERIVED = new Set(["source", "licence", "statusKind", "sourceUrl", "maxPowerKw", "distanceKm"]);

/** A site as stored in the file: nulls and derivable fields left out. */
export function compactSite(site: Site): StoredSite {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(site)) {
    if (value === null || DERIVED.has(key)) continue;
    out[key] = key === "address" || key === "connectors" ? dropNulls(value) : value;
  }
  return out as StoredSite;
}

function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([, x]) => x !== null));
  }
  return value;
}

/** The file text in pieces (header first, one site per line), for writing a data set of any size. */
export function* datasetChunks(header: DatasetHeader, sites: Iterable<Site>): Generator<string> {
  yield `${JSON.stringify(header).slice(0, -1)},"sites":[\n`;
  let first = true;
  for (const site of sites) {
    yield `${first ? "" : ",\n"}${JSON.stringify(compactSite(site))}`;
    first = false;
  }
  yield "\n]}\n";
}

/** The file text: header first, one site per line, so diffs of a re-import stay readable. */
export function serializeDataset(header: DatasetHeader, sites: readonly Site[]): string {
  return [...datasetChunks(header, sites)].join("");
}

/** A data-set file's partitions by key (the rows name theirs); throws naming the problem. */
export function datasetPartitions(raw: unknown): Map<string, Partition & { key: string }> {
  const parsed = v.safeParse(HeaderSchema.partitions, raw);
  if (!parsed.success) fail(parsed.issues);
  return new Map(parsed.output.map((p) => [p.key, p]));
}

/** One compact row of a data-set file as a full Site; undefined when it is malformed or from no partition. */
export function datasetRow(raw: unknown, partitions: ReadonlyMap<string, Partition>): Site | undefined {
  const parsed = v.safeParse(SiteSchema, raw);
  if (!parsed.success) return undefined;
  const partition = partitions.get(parsed.output.attributionKey);
  if (!partition || !parsed.output.id.startsWith(`${partition.source}:`)) return undefined;
  return restore(parsed.output, partition);
}
