/**
 * Open Charge Map POIs (API v3 `/v3/poi`, verbose or compact, and the mongoexport cache after
 * `unwrapExtendedJson`) into sites. Compact rows carry ids only; `OcmReference` resolves them.
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { kindForOcmId } from "../data/connectors.ts";
import { maxPower } from "../data/dataset.ts";
import { ocmAttributionKey, openLicence } from "../data/licence.ts";
import type { Access, Address, Connector, Site } from "../data/model.ts";
import { ocmSiteStatus, ocmStatus } from "../status/vocabulary.ts";
import type { OcmReference } from "./ocm-reference.ts";
import { clean, isoDate, latest, type RowResult, round7, validCoordinates } from "./row.ts";

const num = v.nullish(v.number());
const str = v.nullish(v.string());
const titled = v.nullish(v.looseObject({ Title: str }));

const ConnectionSchema = v.looseObject({
  ConnectionTypeID: num,
  ConnectionType: titled,
  StatusTypeID: num,
  PowerKW: num,
  CurrentTypeID: num,
  Quantity: num,
});

const PoiSchema = v.looseObject({
  ID: v.pipe(v.number(), v.integer(), v.minValue(1)),
  DataProviderID: num,
  DataProvider: v.nullish(v.looseObject({ ID: num, License: str, IsOpenDataLicensed: v.nullish(v.boolean()) })),
  OperatorID: num,
  OperatorInfo: titled,
  UsageTypeID: num,
  UsageCost: str,
  StatusTypeID: num,
  SubmissionStatusTypeID: num,
  AddressInfo: v.looseObject({
    Title: str,
    AddressLine1: str,
    AddressLine2: str,
    Town: str,
    StateOrProvince: str,
    Postcode: str,
    CountryID: num,
    Country: v.nullish(v.looseObject({ ISOCode: str })),
    Latitude: num,
    Longitude: num,
  }),
  Connections: v.nullish(v.array(ConnectionSchema)),
  NumberOfPoints: num,
  DateLastStatusUpdate: str,
  DateLastVerified: str,
  DateLastConfirmed: str,
  DateCreated: str,
});

type Poi = v.InferOutput<typeof PoiSchema>;

/** SubmissionStatusTypes: 100/200 are live; 1000+ are delisted (closed); the rest are not yet published. */
const LIVE_SUBMISSIONS = new Set([100, 200]);

/** UsageTypes: who may charge (ids from OCM reference data). */
const USAGE_ACCESS: Record<number, Access> = {
  1: "public",
  4: "membership",
  5: "public",
  7: "public",
  2: "private",
  3: "private",
  6: "customers",
};

const UNKNOWN_OPERATOR = 1;

/** Whether a row answers "does it cost money": pay-at-location usage, or the cost text. */
function feeOf(usageTypeId: number | null | undefined, cost: string | null): boolean | null {
  if (cost && /^(free|0|none|no charge|kostenlos|gratuit)\b/i.test(cost)) return false;
  if (usageTypeId === 5) return true;
  if (cost && /[$£€¥]\s*\d*[.,]?\d*[1-9]|\d\s*(\/kwh|per kwh|p\/kwh|\/min)/i.test(cost)) return true;
  return null;
}

function connectorOf(c: v.InferOutput<typeof ConnectionSchema>, ref: OcmReference | undefined): Connector | null {
  if (ocmStatus(c.StatusTypeID) === "REMOVED") return null;
  const kind = kindForOcmId(c.ConnectionTypeID);
  const id = c.ConnectionTypeID ?? 0;
  const label = clean(c.ConnectionType?.Title) ?? ref?.connectionTypes.get(id) ?? kind.name;
  // CCS, CHAdeMO and GB/T DC carry DC only: an "AC" on them is a data-entry slip (OCM has
  // CHAdeMO rows at 40-50 kW marked "AC (Single-Phase)"), not a plug a driver can use on AC.
  const stated = c.CurrentTypeID === 30 ? "DC" : c.CurrentTypeID === 10 || c.CurrentTypeID === 20 ? "AC" : null;
  const current = kind.current === "DC" ? "DC" : (stated ?? kind.current);
  const quantity = c.Quantity ?? -1;
  return {
    type: kind.type,
    label: label.trim(),
    powerKw: c.PowerKW && c.PowerKW > 0 ? Math.round(c.PowerKW * 10) / 10 : null,
    quantity: Number.isInteger(quantity) && quantity >= 0 ? quantity : null,
    current,
  };
}

function capacityOf(poi: Poi, connectors: readonly Connector[]): number | null {
  const points = poi.NumberOfPoints ?? 0;
  if (Number.isInteger(points) && points > 0) return points;
  if (connectors.length === 0 || connectors.some((c) => c.quantity === null)) return null;
  const sum = connectors.reduce((n, c) => n + (c.quantity ?? 0), 0);
  return sum > 0 ? sum : null;
}

function licenceOf(poi: Poi, ref: OcmReference | undefined): { provider: number; licence: string | null } {
  const provider = poi.DataProviderID ?? poi.DataProvider?.ID ?? 0;
  if (poi.DataProvider) {
    return { provider, licence: openLicence(poi.DataProvider.License, poi.DataProvider.IsOpenDataLicensed) };
  }
  const why = "compact OCM rows name their data provider by id only; pass ocm-reference.json as well";
  if (!ref) throw new ApiError("INVALID_DATA", why);
  const known = ref.providers.get(provider);
  return { provider, licence: known ? openLicence(known.licence, known.isOpen) : null };
}

/** A POI's postal address, null when it has none; a compact row names its country by id only. */
function addressOf(a: Poi["AddressInfo"], ref: OcmReference | undefined): Address | null {
  const countryCode = clean(a.Country?.ISOCode)?.toUpperCase() ?? ref?.countries.get(a.CountryID ?? -1) ?? null;
  const address: Address = {
    line1: clean(a.AddressLine1),
    line2: clean(a.AddressLine2),
    town: clean(a.Town),
    region: clean(a.StateOrProvince),
    postcode: clean(a.Postcode),
    countryCode: countryCode && /^[A-Z]{2}$/.test(countryCode) ? countryCode : null,
  };
  return Object.values(address).some((x) => x !== null) ? address : null;
}

/** When the status was last updated or verified, else when the POI was last confirmed or created. */
function lastUpdatedOf(poi: Poi): string | null {
  const status = latest(isoDate(poi.DateLastStatusUpdate), isoDate(poi.DateLastVerified));
  return status ?? latest(isoDate(poi.DateLastConfirmed), isoDate(poi.DateCreated));
}

/** One OCM POI (already validated against `PoiSchema`) into a site or a drop reason. */
function ocmSite(poi: Poi, ref: OcmReference | undefined): RowResult {
  const id = `ocm:${poi.ID}`;
  const submission = poi.SubmissionStatusTypeID;
  if (submission !== null && submission !== undefined && !LIVE_SUBMISSIONS.has(submission)) {
    return { drop: submission >= 1000 ? "closed" : "unpublished", id };
  }
  const connections = poi.Connections ?? [];
  const status = ocmSiteStatus(poi.StatusTypeID, connections.map((c) => c.StatusTypeID));
  if (status === "REMOVED") return { drop: "closed", id };
  const { provider, licence } = licenceOf(poi, ref);
  if (!licence) return { drop: "licence-not-open", id };
  const a = poi.AddressInfo;
  if (!validCoordinates(a.Latitude, a.Longitude)) return { drop: "no-coordinates", id };
  const connectors = connections.map((c) => connectorOf(c, ref)).filter((c): c is Connector => c !== null);
  const operatorName = clean(poi.OperatorInfo?.Title) ?? ref?.operators.get(poi.OperatorID ?? -1) ?? null;
  const usageCost = clean(poi.UsageCost);
  const site: Site = {
    id,
    source: "ocm",
    licence,
    attributionKey: ocmAttributionKey(provider, licence),
    name: clean(a.Title),
    lat: round7(a.Latitude as number),
    lon: round7(a.Longitude as number),
    address: addressOf(a, ref),
    operator: poi.OperatorID === UNKNOWN_OPERATOR ? null : operatorName,
    network: null,
    connectors,
    maxPowerKw: maxPower(connectors),
    capacity: capacityOf(poi, connectors),
    access: USAGE_ACCESS[poi.UsageTypeID ?? -1] ?? null,
    fee: feeOf(poi.UsageTypeID, usageCost),
    usageCost,
    openingHours: null,
    status,
    statusKind: "registry",
    lastUpdated: lastUpdatedOf(poi),
    sourceUrl: `https://openchargemap.org/site/poi/details/${poi.ID}`,
  };
  return { site };
}

/** Validates then converts one raw OCM row. */
export function importOcmRow(raw: unknown, ref: OcmReference | undefined): RowResult {
  const parsed = v.safeParse(PoiSchema, raw);
  if (!parsed.success) {
    const rawId = typeof raw === "object" && raw !== null && "ID" in raw ? `ocm:${String(raw.ID)}` : undefined;
    return rawId ? { drop: "malformed", id: rawId } : { drop: "malformed" };
  }
  return ocmSite(parsed.output, ref);
}

/** True when a parsed JSON value looks like an OCM POI. */
export function isOcmPoi(json: unknown): boolean {
  return typeof json === "object" && json !== null && "ID" in json && "AddressInfo" in json;
}
