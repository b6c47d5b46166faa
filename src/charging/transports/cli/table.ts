/**
 * Human-readable output for the CLI: aligned tables for site lists and key/value blocks for
 * one site or status. Scripts should use `--json` instead of parsing these.
 * @module
 */
import type { Connector, Site } from "../../data/model.ts";

const clip = (text: string, width: number) => (text.length <= width ? text : `${text.slice(0, width - 1)}…`);

/** Rows as aligned columns under a header; the last column is not padded. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => (c === cells.length - 1 ? cell : cell.padEnd(widths[c] as number)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

const kw = (value: number | null | undefined) => String(value ?? "-");

const connectorsText = (connectors: readonly Connector[]) => [...new Set(connectors.map((c) => c.type))].join(",") || "-";

/** Town (or, failing that, region: many London OCM rows have no town) and country. */
const placeOf = (a: Site["address"]) =>
  [a?.town ?? a?.region, a?.countryCode].filter(Boolean).join(", ") || "-";

const REGISTRY_NOTE =
  "STATUS is the open data's registry status (listed as working or not), not live occupancy; " +
  "see charging status <id>";

/** A page of sites as a table, with the page line and attribution. */
export function renderSites(
  data: readonly Site[],
  page: { limit: number; offset: number; total: number; nextCursor?: string },
  attribution: readonly { text: string; url: string }[],
): string {
  const near = data.some((s) => s.distanceKm !== undefined);
  const along = data.some((s) => s.alongKm !== undefined);
  const km = (value: number | undefined) => (value === undefined ? "-" : value.toFixed(2));
  const header = ["ID", "NAME", "KW", "CONNECTORS", "STATUS", ...(near ? ["KM"] : []), ...(along ? ["ALONG KM", "OFF KM"] : []), "PLACE"];
  const rows = data.map((s) => [
    s.id,
    clip(s.name ?? "-", 36),
    kw(s.maxPowerKw),
    clip(connectorsText(s.connectors), 28),
    s.status,
    ...(near ? [km(s.distanceKm)] : []),
    ...(along ? [km(s.alongKm), km(s.offRouteKm)] : []),
    clip(placeOf(s.address), 30),
  ]);
  const shown =
    data.length === 0
      ? `no sites (total ${page.total}, offset ${page.offset})`
      : `sites ${page.offset + 1}-${page.offset + data.length} of ${page.total}`;
  const credits = attribution.map((a) => `data: ${a.text} (${a.url})`);
  // Registry AVAILABLE means "listed as working", and a table reader must not take it for "free now".
  const registry = data.some((s) => s.statusKind === "registry") ? [REGISTRY_NOTE] : [];
  const next = page.nextCursor ? [`next page: --cursor ${page.nextCursor}`] : [];
  return [...(data.length > 0 ? [renderTable(header, rows)] : []), shown, ...next, ...registry, ...credits].join("\n");
}

/** Aligned `key  value` lines, skipping empty values. */
export function renderFields(
  fields: readonly (readonly [string, string | number | boolean | null | undefined])[],
): string {
  const shown = fields.filter(([, value]) => value !== null && value !== undefined && value !== "");
  const width = Math.max(...shown.map(([key]) => key.length));
  return shown.map(([key, value]) => `${key.padEnd(width)}  ${String(value)}`).join("\n");
}

/** One site as key/value lines plus a connector table. */
export function renderSite(site: Site, attribution: { text: string; url: string } | undefined): string {
  const a = site.address;
  const place = a
    ? [a.line1, a.line2, a.postcode, a.town, a.region, a.countryCode].filter(Boolean).join(", ")
    : "";
  const fields = renderFields([
    ["id", site.id],
    ["name", site.name],
    ["source", site.source],
    ["licence", site.licence],
    ["location", `${site.lat}, ${site.lon}`],
    ["address", place],
    ["operator", site.operator],
    ["network", site.network],
    ["max kW", site.maxPowerKw],
    ["capacity", site.capacity],
    ["access", site.access],
    ["fee", site.fee],
    ["cost", site.usageCost],
    ["hours", site.openingHours],
    ["status", `${site.status} (${site.statusKind} data, not live occupancy)`],
    ["updated", site.lastUpdated],
    ["url", site.sourceUrl],
    ["attribution", attribution ? `${attribution.text} (${attribution.url})` : undefined],
  ]);
  if (site.connectors.length === 0) return fields;
  const plugs = renderTable(
    ["CONNECTOR", "LABEL", "KW", "QTY", "CURRENT"],
    site.connectors.map((c) => [c.type, clip(c.label, 40), kw(c.powerKw), kw(c.quantity), c.current ?? "-"]),
  );
  return `${fields}\n\n${plugs}`;
}
