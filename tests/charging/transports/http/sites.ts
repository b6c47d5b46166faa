/** A small hand-made site set for handler tests (shapes from src/charging/data/model.ts). */
import type { Site } from "../../../../src/charging/data/model.ts";

function site(id: string, lon: number, lat: number, extra: Partial<Site> = {}): Site {
  const source = id.startsWith("ocm:") ? "ocm" : "osm";
  return {
    id,
    source,
    licence: source === "ocm" ? "CC-BY-4.0" : "ODbL-1.0",
    attributionKey: source === "ocm" ? "ocm:1" : "osm",
    name: `Site ${id}`,
    lat,
    lon,
    address: null,
    operator: null,
    network: null,
    connectors: [{ type: "type2", label: "Type 2 (Socket Only)", powerKw: 22, quantity: 2, current: "AC" }],
    maxPowerKw: 22,
    capacity: 2,
    access: "public",
    fee: null,
    usageCost: null,
    openingHours: null,
    status: "AVAILABLE",
    statusKind: "registry",
    lastUpdated: "2020-01-01T00:00:00.000Z",
    sourceUrl: `https://example.org/${id}`,
    ...extra,
  };
}

export const SITES: Site[] = [
  site("ocm:1", 13.4, 52.5),
  site("ocm:2", 13.41, 52.51, {
    connectors: [{ type: "ccs2", label: "CCS (Type 2)", powerKw: 150, quantity: 4, current: "DC" }],
    maxPowerKw: 150,
    status: "OUTOFORDER",
  }),
  site("osm:node/10", 2.35, 48.85),
  site("osm:way/20", 2.36, 48.86, { maxPowerKw: null, connectors: [] }),
  ...Array.from({ length: 30 }, (_, i) => site(`ocm:${100 + i}`, -0.1 + i / 1000, 51.5)),
];
