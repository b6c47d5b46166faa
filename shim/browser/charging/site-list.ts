/** The sites of a search: on the map, in the list, with the summary line and the data's credits. */
import type { GeoJSONSource, MapLibreMap } from "../../../deps-map.ts";
import type { Attribution, Site, SitesAnswer } from "./api.ts";
import { byId, element, link, results, state, summary } from "./page.ts";

/** The view as an API bbox: longitudes wrapped into -180..180 (a box across the antimeridian has minLon > maxLon). */
export function bboxOf(map: MapLibreMap): string {
  const bounds = map.getBounds();
  const wrap = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;
  const clampLat = (lat: number) => Math.max(-90, Math.min(90, lat));
  const whole = bounds.getEast() - bounds.getWest() >= 360;
  const [west, east] = whole ? [-180, 180] : [wrap(bounds.getWest()), wrap(bounds.getEast())];
  return [west, clampLat(bounds.getSouth()), east === -180 ? 180 : east, clampLat(bounds.getNorth())].map((n) => n.toFixed(5)).join(",");
}

export function showCredits(attribution: Attribution[]): void {
  const credits = byId("data-credits");
  credits.replaceChildren(...attribution.map((line) => link(line.text, line.url)));
}

export function summaryLine(answer: SitesAnswer): string {
  const { total } = answer.page;
  const shown = answer.data.length;
  if (state.route) {
    const where = "within the corridor of the route, in order along it";
    return total === shown ? `${total} site${total === 1 ? "" : "s"} ${where}` : `The first ${shown} of ${total} sites ${where}`;
  }
  if (total === shown) return `${total} site${total === 1 ? "" : "s"} in view`;
  return `The ${shown} nearest the centre of ${total} sites in view; zoom in for the others`;
}

export function listItem(site: Site, open: (site: Site) => void): HTMLLIElement {
  const item = element("li");
  item.dataset.id = site.id;
  const button = element("button", site.name ?? site.id);
  button.type = "button";
  button.addEventListener("click", () => open(site));
  const power = site.maxPowerKw === null ? "power unknown" : `${site.maxPowerKw} kW`;
  const along = site.alongKm === undefined ? null : `${site.alongKm.toFixed(1)} km along, ${site.offRouteKm?.toFixed(1)} km off`;
  const facts = [along, site.operator, power, site.status].filter((fact): fact is string => Boolean(fact));
  item.append(button, element("span", facts.join(" · ")));
  return item;
}

export function showSites(map: MapLibreMap, answer: SitesAnswer, open: (site: Site) => void): void {
  const features = answer.data.map((site) => ({
    type: "Feature" as const,
    geometry: { type: "Point" as const, coordinates: [site.lon, site.lat] },
    properties: { id: site.id, status: site.status },
  }));
  (map.getSource("sites") as GeoJSONSource).setData({ type: "FeatureCollection", features });
  results.replaceChildren(...answer.data.map((site) => listItem(site, open)));
  summary.textContent = summaryLine(answer);
  showCredits(answer.attribution);
}
