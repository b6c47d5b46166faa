/**
 * Serialised answers. Stored sites never change, so each one is serialised (text and UTF-8
 * bytes) once per id and kept in a bounded LRU; answers are assembled from these parts, so a
 * new page of 20 sites costs a copy instead of a stringify and an encode. A `near` result's
 * `distanceKm` (a route result's `alongKm` and `offRouteKm`) is appended to the kept part of its site.
 * @module
 */
import { Lru } from "../../../shared/lru.ts";
import { joinPrepared, type PreparedJson, prepareText } from "../../../shared/http/respond.ts";
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

/** A site's stored fields as JSON (what a part holds: no distances). */
function storedText(site: Site): string {
  const { distanceKm: _d, alongKm: _a, offRouteKm: _o, ...stored } = site;
  return JSON.stringify(stored);
}

/** A result's distances as JSON members (`near`: distanceKm; a route: alongKm and offRouteKm), or "". */
function extrasOf({ distanceKm, alongKm, offRouteKm }: Site): string {
  if (distanceKm === undefined && alongKm === undefined && offRouteKm === undefined) return "";
  return [
    distanceKm === undefined ? "" : `,"distanceKm":${distanceKm}`,
    alongKm === undefined ? "" : `,"alongKm":${alongKm}`,
    offRouteKm === undefined ? "" : `,"offRouteKm":${offRouteKm}`,
  ].join("");
}

/** A site of a page read once: its text made fresh, neither looked up nor kept. */
function onceText(site: Site): string {
  const text = storedText(site);
  const extra = extrasOf(site);
  return extra === "" ? text : `${text.slice(0, -1)}${extra}}`;
}

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

  const sitePart = (site: Site): PreparedJson => {
    let part = parts.get(site.id);
    if (part === undefined) {
      part = prepareText(storedText(site));
      parts.set(site.id, part);
    }
    const extra = extrasOf(site);
    // The part ends with the site's closing brace; the distances go last, as in the Site type.
    return extra === "" ? part : joinPrepared([{ bytes: part.bytes.subarray(0, -1) }, `${extra}}`]);
  };

  return {
    sites(data, page, attribution, once = false) {
      const tail = `],"page":${JSON.stringify(page)},"attribution":${JSON.stringify(attribution)}}`;
      // Once: one text encoded once. Parts encoded one by one and then joined allocated each
      // page's bytes twice, in buffers outside the JS heap, whose growth sets off full collections.
      if (once) return prepareText(`{"data":[${data.map(onceText).join(",")}${tail}`);
      const pieces: (string | PreparedJson)[] = [OPEN_DATA];
      data.forEach((site, i) => {
        if (i > 0) pieces.push(COMMA);
        pieces.push(sitePart(site));
      });
      pieces.push(tail);
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
