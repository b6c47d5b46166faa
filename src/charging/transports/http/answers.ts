/**
 * Serialised answers. Stored sites never change, so each one is serialised (text and UTF-8
 * bytes) once per id and kept in a bounded LRU; answers are assembled from these parts, so a
 * new page of 20 sites costs a copy instead of a stringify and an encode. A `near` result's
 * `distanceKm` (a route result's `alongKm` and `offRouteKm`) is appended to the kept part of its site.
 * @module
 */
import { Lru } from "../../../shared/lru.ts";
import { joinPrepared, type PreparedJson, prepareJson, prepareText } from "../../../shared/http/respond.ts";
import type { Attribution, Site } from "../../data/model.ts";
import type { Store } from "../../search/store.ts";

/** Sites whose serialised form is kept (about 2 KB each, so some 40 MB at most). */
const SITE_PARTS_KEPT = 20_000;

const OPEN_DATA = prepareText('{"data":[');
const OPEN_FEATURES = prepareText('{"type":"FeatureCollection","features":[');
const COMMA = prepareText(",");

/** A site as a GeoJSON Feature: its id, a Point, and every site field as properties. */
function feature(site: Site, part: PreparedJson): (string | PreparedJson)[] {
  const head = `{"type":"Feature","id":${JSON.stringify(site.id)},"geometry":{"type":"Point","coordinates":[${site.lon},${site.lat}]},"properties":`;
  return [head, part, "}"];
}

type Page = { limit: number; offset: number; total: number };

export interface Answers {
  /**
   * `{"data":[...],"page":...,"attribution":[...]}`; `once`: a page its client reads once (a
   * sync), whose sites' parts are made but neither looked up nor kept (they would push the
   * parts of sites a map shows again and again out of the LRU).
   */
  sites(data: readonly Site[], page: Page, attribution: readonly Attribution[], once?: boolean): PreparedJson;
  /** `{"data":{...},"attribution":{...}}` */
  site(site: Site): PreparedJson;
  /** A GeoJSON FeatureCollection of the page; `page` and `attribution` ride along as foreign members (RFC 7946 6.1). */
  sitesGeo(data: readonly Site[], page: Page, attribution: readonly Attribution[]): PreparedJson;
  /** One GeoJSON Feature with the row's `attribution` as a foreign member. */
  siteGeo(site: Site): PreparedJson;
}

export function createAnswers(store: Store, kept = SITE_PARTS_KEPT): Answers {
  const parts = new Lru<string, PreparedJson>(kept);

  const sitePart = (site: Site, once = false): PreparedJson => {
    let part = once ? undefined : parts.get(site.id);
    if (part === undefined) {
      const { distanceKm: _d, alongKm: _a, offRouteKm: _o, ...stored } = site;
      part = prepareJson(stored);
      if (!once) parts.set(site.id, part);
    }
    const { distanceKm, alongKm, offRouteKm } = site;
    if (distanceKm === undefined && alongKm === undefined && offRouteKm === undefined) return part;
    const extra = [
      distanceKm === undefined ? "" : `,"distanceKm":${distanceKm}`,
      alongKm === undefined ? "" : `,"alongKm":${alongKm}`,
      offRouteKm === undefined ? "" : `,"offRouteKm":${offRouteKm}`,
    ].join("");
    // The part ends with the site's closing brace; the distances go last, as in the Site type.
    return joinPrepared([{ bytes: part.bytes.subarray(0, -1) }, `${extra}}`]);
  };

  return {
    sites(data, page, attribution, once = false) {
      const pieces: (string | PreparedJson)[] = [OPEN_DATA];
      data.forEach((site, i) => {
        if (i > 0) pieces.push(COMMA);
        pieces.push(sitePart(site, once));
      });
      pieces.push(`],"page":${JSON.stringify(page)},"attribution":${JSON.stringify(attribution)}}`);
      return joinPrepared(pieces);
    },
    // The credit line travels with the row (CC BY and ODbL ask for it wherever the data is shown).
    site: (site) =>
      joinPrepared([
        '{"data":',
        sitePart(site),
        `,"attribution":${JSON.stringify(store.attributionFor(site))}}`,
      ]),
    sitesGeo(data, page, attribution) {
      const pieces: (string | PreparedJson)[] = [OPEN_FEATURES];
      data.forEach((site, i) => {
        if (i > 0) pieces.push(COMMA);
        pieces.push(...feature(site, sitePart(site)));
      });
      pieces.push(`],"page":${JSON.stringify(page)},"attribution":${JSON.stringify(attribution)}}`);
      return joinPrepared(pieces);
    },
    siteGeo(site) {
      const [head, part] = feature(site, sitePart(site)) as [string, PreparedJson, string];
      return joinPrepared([head, part, `,"attribution":${JSON.stringify(store.attributionFor(site))}}`]);
    },
  };
}
