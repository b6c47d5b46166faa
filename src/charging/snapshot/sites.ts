/**
 * Sites out of a snapshot: one row decoded into a full `Site` when an answer needs it (a page
 * holds at most 100), and an id found by binary search over the id-ordered columns.
 * @module
 */
import { Lru } from "../../shared/lru.ts";
import { sourceUrlFor } from "../data/dataset.ts";
import { ACCESS_VALUES, type Address, type Connector, type Site, STATUS_VALUES } from "../data/model.ts";
import { ID_KINDS, NO_STRING, TEXT_FIELDS } from "./format.ts";
import type { Snapshot } from "./read.ts";

const ID = /^(ocm:|osm:node\/|osm:way\/|osm:relation\/)([1-9]\d{0,19})$/;
const CURRENTS = [null, "AC", "DC"] as const;
const WIDTH = TEXT_FIELDS.length;

/** The row of `id`, or -1 when no site has it. */
export function rowOf(s: Snapshot, id: string): number {
  const match = ID.exec(id);
  if (!match) return -1;
  const kind = ID_KINDS.indexOf(match[1] as (typeof ID_KINDS)[number]);
  const num = Number(match[2]);
  // Past 2^53 a number stands for several ids: none of them is stored (the writer refuses them).
  if (!Number.isSafeInteger(num)) return -1;
  let lo = 0;
  let hi = s.size - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const diff = (s.idKind[mid] as number) - kind || (s.idNum[mid] as number) - num;
    if (diff === 0) return mid;
    if (diff < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function idAt(s: Snapshot, row: number): string {
  return `${ID_KINDS[s.idKind[row] as number]}${s.idNum[row]}`;
}

const decoder = new TextDecoder();

/** The text of one string id. */
export function stringAt(s: Snapshot, id: number): string {
  return decoder.decode(s.stringBytes.subarray(s.stringOffsets[id], s.stringOffsets[id + 1]));
}

function textAt(s: Snapshot, row: number, field: number): string | null {
  const id = s.text[row * WIDTH + field] as number;
  return id === NO_STRING ? null : stringAt(s, id);
}

function addressAt(s: Snapshot, row: number): Address | null {
  const a: Address = {
    line1: textAt(s, row, 1),
    line2: textAt(s, row, 2),
    town: textAt(s, row, 3),
    region: textAt(s, row, 4),
    postcode: textAt(s, row, 5),
    countryCode: textAt(s, row, 6),
  };
  return Object.values(a).some((x) => x !== null) ? a : null;
}

function connectorsAt(s: Snapshot, row: number): Connector[] {
  const out: Connector[] = [];
  for (let c = s.connectorOffsets[row] as number; c < (s.connectorOffsets[row + 1] as number); c++) {
    const [type, label] = s.kinds[s.connectorKind[c] as number] as readonly [string, string];
    const power = s.connectorPower[c] as number;
    const quantity = s.connectorQuantity[c] as number;
    out.push({
      type,
      label,
      powerKw: Number.isNaN(power) ? null : power,
      quantity: quantity < 0 ? null : quantity,
      current: CURRENTS[s.connectorCurrent[c] as number] ?? null,
    });
  }
  return out;
}

/** The full site of one row. */
export function siteAt(s: Snapshot, row: number): Site {
  const id = idAt(s, row);
  const partition = s.header.partitions[s.partition[row] as number] as { key: string; source: Site["source"]; licence: string };
  const maxPower = s.maxPower[row] as number;
  const capacity = s.capacity[row] as number;
  const fee = s.fee[row] as number;
  const access = s.access[row] as number;
  return {
    id,
    source: partition.source,
    licence: partition.licence,
    attributionKey: partition.key,
    name: textAt(s, row, 0),
    lat: s.lat[row] as number,
    lon: s.lon[row] as number,
    address: addressAt(s, row),
    operator: textAt(s, row, 7),
    network: textAt(s, row, 8),
    connectors: connectorsAt(s, row),
    maxPowerKw: Number.isNaN(maxPower) ? null : maxPower,
    capacity: capacity < 0 ? null : capacity,
    access: access === 0 ? null : (ACCESS_VALUES[access - 1] ?? null),
    fee: fee === 0 ? null : fee === 2,
    usageCost: textAt(s, row, 9),
    openingHours: textAt(s, row, 10),
    status: STATUS_VALUES[s.status[row] as number] ?? "UNKNOWN",
    statusKind: "registry",
    lastUpdated: textAt(s, row, 11),
    sourceUrl: sourceUrlFor(id),
  };
}

/** Decoded sites a reader keeps (about 1 KB each): a map pan shows mostly sites the last pans showed. */
const SITES_KEPT = 4096;

/**
 * Decodes rows of `s` into sites, keeping the last `kept` decoded: a page of 20 sites costs
 * some 30 µs of string decoding, a kept one a copy. Each call returns its own top-level
 * object (searches add `distanceKm`, `alongKm` and `offRouteKm` to it); the address and
 * connectors inside are shared between calls and never written.
 */
export function createSiteReader(s: Snapshot, kept = SITES_KEPT): (row: number) => Site {
  const sites = new Lru<number, Site>(kept);
  return (row) => {
    let site = sites.get(row);
    if (site === undefined) {
      site = siteAt(s, row);
      sites.set(row, site);
    }
    return { ...site };
  };
}
