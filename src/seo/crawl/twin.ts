/**
 * The production twin of a staging or local copy. A site audited before deploy usually
 * carries its production URLs in canonicals, hreflang alternates, absolute links and the
 * sitemap (`https://example.com/docs/a` on `http://localhost:3000/docs/a`). Read literally,
 * every page canonicalises to another site, so nothing is indexable and the duplicate checks
 * go silent. The twin maps the production origin (and path prefix) onto the audited one.
 * @module
 */
import { normaliseUrl, originOfUrl } from "../fetch/url.ts";

export interface Twin {
  /** Production origin, e.g. https://example.com */
  origin: string;
  /** Path prefix on the production side that stands for `localPrefix` here ("" or "/docs"). */
  remotePrefix: string;
  localPrefix: string;
  /** How it was found: the production_url input, the start page's canonical, or most pages' canonicals. */
  via: "option" | "start-page" | "canonicals";
}

const trimSlash = (path: string) => path.replace(/\/+$/, "");

/**
 * The twin a page's canonical reveals: the canonical is on another origin with the page's own
 * path, or with the page's path under a prefix (either way round: production under /docs, or
 * the copy under /docs). A root page says nothing about prefixes, so it must match exactly.
 */
export function twinFromCanonical(pageUrl: string, canonical: string, via: Twin["via"]): Twin | undefined {
  if (!URL.canParse(pageUrl) || !URL.canParse(canonical)) return undefined;
  const page = new URL(pageUrl);
  const prod = new URL(canonical);
  if (prod.origin === page.origin || prod.search !== page.search) return undefined;
  const here = trimSlash(page.pathname);
  const there = trimSlash(prod.pathname);
  const twin = (remotePrefix: string, localPrefix: string): Twin => ({
    origin: prod.origin,
    remotePrefix,
    localPrefix,
    via,
  });
  if (here === there) return twin("", "");
  if (here === "" || there === "") return undefined;
  if (there.endsWith(here)) return twin(there.slice(0, there.length - here.length), "");
  if (here.endsWith(there)) return twin("", here.slice(0, here.length - there.length));
  return undefined;
}

/**
 * The twin a `production_url` input names: that URL stands for the start URL, so a root start
 * page may map onto a production prefix (and the other way round) when the user says so.
 */
export function twinFromOption(startUrl: string, productionUrl: string): Twin | undefined {
  const production = normaliseUrl(productionUrl);
  if (!production || new URL(production).origin === new URL(startUrl).origin) return undefined;
  const found = twinFromCanonical(startUrl, production, "option");
  if (found) return found;
  return {
    origin: new URL(production).origin,
    remotePrefix: trimSlash(new URL(production).pathname),
    localPrefix: trimSlash(new URL(startUrl).pathname),
    via: "option",
  };
}

const underPrefix = (path: string, prefix: string) =>
  prefix === "" || (path.startsWith(prefix) && /^([/?#]|$)/.test(path.slice(prefix.length)));

/** Maps a production URL onto the audited origin; other URLs pass unchanged. */
export function toLocal(url: string, twin: Twin | undefined, localOrigin: string): string {
  if (!twin || !url.startsWith(twin.origin)) return url;
  const path = url.slice(twin.origin.length) || "/";
  // https://example.com.evil/ starts with https://example.com too
  if (!/^[/?#]/.test(path) || !underPrefix(path, twin.remotePrefix)) return url;
  return normaliseUrl(`${localOrigin}${twin.localPrefix}${path.slice(twin.remotePrefix.length) || "/"}`) ?? url;
}

/**
 * Found after the crawl when the start page did not reveal it: the foreign origin that most
 * pages' canonicals point at with their own path, if it is at least half of the foreign
 * canonicals and at least two pages.
 */
const originIfUrl = (url: string) => (URL.canParse(url) ? originOfUrl(url) : undefined);

export function twinFromPages(pairs: Iterable<{ url: string; canonical: string }>): Twin | undefined {
  const votes = new Map<string, { twin: Twin; count: number }>();
  let foreign = 0;
  for (const { url, canonical } of pairs) {
    const origin = originIfUrl(url);
    if (origin === undefined || !URL.canParse(canonical) || originOfUrl(canonical) === origin) continue;
    foreign++;
    const twin = twinFromCanonical(url, canonical, "canonicals");
    if (!twin) continue;
    const key = `${twin.origin}\n${twin.remotePrefix}\n${twin.localPrefix}`;
    const vote = votes.get(key) ?? { twin, count: 0 };
    vote.count++;
    votes.set(key, vote);
  }
  let best: { twin: Twin; count: number } | undefined;
  for (const vote of votes.values()) if (!best || vote.count > best.count) best = vote;
  return best && best.count >= 2 && best.count * 2 >= foreign ? best.twin : undefined;
}

/** "https://example.com/docs" for the report. */
export function describeTwin(twin: Twin): string {
  return `${twin.origin}${twin.remotePrefix}`;
}
