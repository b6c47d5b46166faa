/** One site opened: its facts, its status record and its credit line. */
import type { MapLibreMap } from "../../../deps-map.ts";
import { getJson, type Site, type StatusAnswer } from "./api.ts";
import { detail, element, link, results } from "./page.ts";

export function fact(list: HTMLDListElement, name: string, value: string | Node | null | undefined): void {
  if (value === null || value === undefined || value === "") return;
  list.append(element("dt", name));
  const cell = element("dd");
  cell.append(value);
  list.append(cell);
}

export function addressOf(site: Site): string | null {
  const a = site.address;
  if (!a) return null;
  return [a.line1, [a.postcode, a.town].filter(Boolean).join(" "), a.region, a.countryCode].filter(Boolean).join(", ");
}

export function connectorsOf(site: Site): HTMLUListElement {
  const list = element("ul");
  for (const c of site.connectors) {
    const parts = [c.label, c.powerKw === null ? null : `${c.powerKw} kW`, c.current, c.quantity === null ? null : `× ${c.quantity}`];
    list.append(element("li", parts.filter(Boolean).join(" · ")));
  }
  return list;
}

export function showSite(site: Site, status: StatusAnswer["data"] | string): void {
  const list = element("dl");
  if (typeof status === "string") fact(list, "Status", status);
  else {
    fact(list, "Status", `${status.status} (${status.kind}, retrieved ${status.retrievedAt})`);
    if (status.stale) fact(list, "Stale", status.staleReason ?? "yes");
  }
  fact(list, "Address", addressOf(site));
  fact(list, "Operator", site.operator);
  fact(list, "Network", site.network);
  fact(list, "Connectors", connectorsOf(site));
  fact(list, "Access", site.access);
  fact(list, "Cost", site.usageCost);
  fact(list, "Opening hours", site.openingHours);
  fact(list, "Source", link(site.id, site.sourceUrl));
  fact(list, "Licence", site.licence);
  if (typeof status !== "string") fact(list, "Credit", link(status.attribution.text, status.attribution.url));
  detail.replaceChildren(element("h2", site.name ?? site.id), list);
  detail.hidden = false;
}

export async function openSite(map: MapLibreMap, site: Site): Promise<void> {
  for (const item of results.querySelectorAll("li")) item.classList.toggle("open", item.dataset.id === site.id);
  map.setFilter("opened", ["==", ["get", "id"], site.id]);
  try {
    const status = await getJson<StatusAnswer>(`api/v1/status/${encodeURIComponent(site.id)}`);
    showSite(site, status.data);
  } catch (err) {
    showSite(site, `unavailable (${(err as Error).message})`);
  }
}
