/**
 * OpenStreetMap charging stations (`amenity=charging_station`) into sites, from Overpass JSON
 * (`out center tags` / `out geom` / `out meta`) or overpass-turbo GeoJSON. Rows are ODbL-1.0.
 * @module
 */
import { kindForOsmSocket } from "../data/connectors.ts";
import { maxPower } from "../data/dataset.ts";
import { OSM_ATTRIBUTION_KEY, OSM_LICENCE } from "../data/licence.ts";
import type { Access, Address, Connector, Site } from "../data/model.ts";
import { osmStatus } from "../status/vocabulary.ts";
import { parseCapacity } from "./capacity.ts";
import { clean, isoDate, type RowResult, round7, validCoordinates } from "./row.ts";

export type OsmType = "node" | "way" | "relation";

export interface OsmElement {
  type: OsmType;
  id: number;
  lat: number | undefined;
  lon: number | undefined;
  tags: Record<string, string>;
  /** Last edit (Overpass `out meta`), else the extract's own timestamp. */
  timestamp: string | null;
}

const ACCESS: Record<string, Access> = {
  yes: "public",
  public: "public",
  permissive: "public",
  customers: "customers",
  destination: "customers",
  guests: "customers",
  members: "membership",
  membership: "membership",
  permit: "membership",
  private: "private",
  no: "private",
  employees: "private",
  residents: "private",
  staff: "private",
  delivery: "private",
};

const SOCKET = /^socket:([a-z0-9_]+)$/;

/** "22 kW", "50kW;150 kW", "3,7 kW": the highest figure with a kW/kVA unit; bare numbers are ignored. */
export function parseOutputKw(raw: string | undefined): number | null {
  if (!raw) return null;
  const figures = [...raw.matchAll(/(\d+(?:[.,]\d+)?)\s*(kw|kva)\b/gi)].map((m) =>
    Number((m[1] as string).replace(",", ".")),
  );
  const best = Math.max(...figures.filter((x) => x > 0 && x < 5000));
  return Number.isFinite(best) ? Math.round(best * 10) / 10 : null;
}

function socketCount(raw: string): number | null | "none" {
  if (/^(no|0)$/i.test(raw.trim())) return "none";
  const n = Number(raw.trim());
  return Number.isInteger(n) && n > 0 && n <= 1000 ? n : null;
}

function connectorsOf(tags: Readonly<Record<string, string>>): Connector[] {
  const out: Connector[] = [];
  for (const [key, value] of Object.entries(tags)) {
    const match = SOCKET.exec(key);
    if (!match) continue;
    const quantity = socketCount(value);
    if (quantity === "none") continue;
    const kind = kindForOsmSocket(match[1] as string);
    out.push({
      type: kind?.type ?? "other",
      label: key,
      powerKw: parseOutputKw(tags[`${key}:output`] ?? tags[`${key}:power`]),
      quantity,
      current: kind?.current ?? null,
    });
  }
  return out;
}

function addressOf(tags: Readonly<Record<string, string>>): Address | null {
  const street = clean(tags["addr:street"] ?? tags["addr:place"]);
  const number = clean(tags["addr:housenumber"]);
  const country = clean(tags["addr:country"])?.toUpperCase() ?? null;
  const address: Address = {
    line1: street ? (number ? `${street} ${number}` : street) : clean(tags["addr:housename"]),
    line2: null,
    town: clean(tags["addr:city"]),
    region: clean(tags["addr:state"] ?? tags["addr:province"]),
    postcode: clean(tags["addr:postcode"]),
    countryCode: country && /^[A-Z]{2}$/.test(country) ? country : null,
  };
  return Object.values(address).some((x) => x !== null) ? address : null;
}

function feeOf(raw: string | undefined): boolean | null {
  if (!raw) return null;
  if (/^(yes|true)$/i.test(raw)) return true;
  if (/^(no|false)$/i.test(raw)) return false;
  return null;
}

/** One OSM element into a site or a drop reason. */
export function osmSite(el: OsmElement): RowResult {
  const id = `osm:${el.type}/${el.id}`;
  const status = osmStatus(el.tags);
  if (status === undefined) return { drop: "not-a-charging-station", id };
  if (status === "REMOVED") return { drop: "closed", id };
  if (!validCoordinates(el.lat, el.lon)) return { drop: "no-coordinates", id };
  const t = el.tags;
  const connectors = connectorsOf(t);
  const site: Site = {
    id,
    source: "osm",
    licence: OSM_LICENCE,
    attributionKey: OSM_ATTRIBUTION_KEY,
    name: clean(t.name),
    lat: round7(el.lat as number),
    lon: round7(el.lon as number),
    address: addressOf(t),
    operator: clean(t.operator),
    network: clean(t.network ?? t.brand),
    connectors,
    maxPowerKw: maxPower(connectors),
    capacity: parseCapacity(t.capacity) ?? parseCapacity(t["capacity:car"] ?? t["capacity:cars"]),
    access: ACCESS[t.access?.toLowerCase() ?? ""] ?? null,
    fee: feeOf(t.fee),
    usageCost: clean(t.charge),
    openingHours: clean(t.opening_hours),
    status,
    statusKind: "registry",
    lastUpdated: isoDate(el.timestamp),
    sourceUrl: `https://www.openstreetmap.org/${el.type}/${el.id}`,
  };
  return { site };
}
