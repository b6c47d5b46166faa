/**
 * Sitemap discovery for one site: robots.txt `Sitemap:` lines, the conventional paths
 * (`/sitemap.xml`, `/sitemap_index.xml`, the start URL's own directory) and the start page's
 * `<link rel="sitemap">`, following indexes, bounded in files and URLs. Each file's outcome
 * is kept for the sitemap checks, with the entries that name another host.
 * @module
 */
import type { FetchedBytes } from "../fetch/fetch-page.ts";
import { normaliseUrl } from "../fetch/url.ts";
import { parseSitemap, type SitemapHreflang } from "./sitemap.ts";

export interface SitemapFile {
  url: string;
  status: number;
  kind: "urlset" | "index" | "invalid" | "absent";
  /**
   * Where it was found: robots.txt, a conventional path (`default`), the start page's
   * `<link rel=sitemap>`, or an index.
   */
  via: "robots" | "default" | "link" | "index";
  urls: number;
  gzip: boolean;
  error?: string;
  /** <lastmod> values that are not W3C Datetime or lie in the future (up to 5). */
  badLastmod?: string[];
  /** Entries on other hosts (neither this site nor its production twin): count and up to 3 examples. */
  foreign?: { count: number; examples: string[] };
  /** hreflang annotations of its entries, when it has any. */
  hreflang?: SitemapHreflang;
}

export interface SitemapResult {
  files: SitemapFile[];
  /** Normalised in-scope URLs listed (production twin URLs mapped here), deduplicated, capped. */
  urls: string[];
  /** Listed URLs outside the site (not used). */
  offSite: number;
  /** True when files or URLs beyond the caps were not read. */
  capped: boolean;
}

interface SitemapCandidates {
  /** From robots.txt `Sitemap:` lines: read even when robots.txt disallows their path. */
  robots: string[];
  /** Conventional paths: a 404 there only means the site does not use that path. */
  conventional: string[];
  /** From the start page's `<link rel="sitemap">`. */
  links: string[];
}

/** The directory of a URL's path, ending in "/": /docs/ for /docs/ and for /docs/intro. */
function directoryOf(url: URL): string {
  return url.pathname.slice(0, url.pathname.lastIndexOf("/") + 1) || "/";
}

/** The conventional paths for a crawl from `start`: the origin's two, and the start URL's own directory's. */
export function conventionalSitemaps(start: URL): string[] {
  const origin = start.origin;
  const dir = directoryOf(start);
  return [`${origin}/sitemap.xml`, `${origin}/sitemap_index.xml`, ...(dir === "/" ? [] : [`${origin}${dir}sitemap.xml`])];
}

interface DiscoverOptions {
  get(url: string): Promise<FetchedBytes>;
  inScope(url: URL): boolean;
  /** Maps a production twin URL onto the site (identity when there is none). */
  toLocal?(url: string): string;
  /** Files read (answering 200); conventional paths that are absent do not count. */
  maxFiles: number;
  maxUrls: number;
  /** Current time (ms), for the future-lastmod check. */
  now?: number;
}

interface Pending {
  url: string;
  via: SitemapFile["via"];
}

function queueOf(candidates: SitemapCandidates, local: (url: string) => string): Pending[] {
  const queue: Pending[] = candidates.robots.map((url) => ({ url, via: "robots" }));
  const listed = new Set(queue.map((p) => normaliseUrl(local(p.url))));
  for (const url of candidates.conventional)
    if (!listed.has(normaliseUrl(url))) queue.push({ url, via: "default" });
  for (const url of candidates.links) queue.push({ url, via: "link" });
  return queue;
}

export async function discoverSitemaps(
  candidates: SitemapCandidates,
  options: DiscoverOptions,
): Promise<SitemapResult> {
  const local = options.toLocal ?? ((url: string) => url);
  const result: SitemapResult = { files: [], urls: [], offSite: 0, capped: false };
  const queue = queueOf(candidates, local);
  const seenFiles = new Set<string>();
  const seenUrls = new Set<string>();
  // Files that answer 200 count against maxFiles; no more fetches than that plus the probes.
  const maxFetches = options.maxFiles + candidates.conventional.length;
  let read = 0;
  while (queue.length > 0) {
    const next = queue.shift() as Pending;
    const url = normaliseUrl(local(next.url));
    if (!url || seenFiles.has(url)) continue;
    if (read >= options.maxFiles || seenFiles.size >= maxFetches) {
      result.capped = true;
      break;
    }
    seenFiles.add(url);
    const file = await readFile(url, next.via, options);
    if (file.file.status === 200) read++;
    result.files.push(file.file);
    for (const child of file.children) queue.push({ url: child, via: "index" });
    if (!collect(file.listed, file.file, local, options, seenUrls, result)) break;
  }
  result.urls = [...seenUrls];
  return result;
}

/** Adds a file's in-scope entries; false once the URL cap is reached. */
function collect(
  listed: string[],
  file: SitemapFile,
  local: (url: string) => string,
  options: DiscoverOptions,
  seen: Set<string>,
  result: SitemapResult,
): boolean {
  for (const entry of listed) {
    const normal = normaliseUrl(entry);
    const mapped = normal && normaliseUrl(local(normal));
    if (!mapped || !options.inScope(new URL(mapped))) {
      result.offSite++;
      file.foreign ??= { count: 0, examples: [] };
      file.foreign.count++;
      if (file.foreign.examples.length < 3) file.foreign.examples.push(entry.slice(0, 300));
      continue;
    }
    if (seen.has(mapped)) continue;
    if (seen.size >= options.maxUrls) {
      result.capped = true;
      return false;
    }
    seen.add(mapped);
  }
  return true;
}

function absentOrInvalid(url: string, via: SitemapFile["via"], page: FetchedBytes): SitemapFile {
  const base = { url, status: page.status, via, urls: 0, gzip: false };
  // A conventional path that is not there is just not used (a 404, or robots.txt keeping it private).
  if (via === "default" && (page.status === 404 || page.status === 410 || page.error === "blocked by robots.txt"))
    return { ...base, kind: "absent" };
  const error = page.status === 0 ? (page.error ?? "unreachable") : `status ${page.status}`;
  return { ...base, kind: "invalid", error };
}

async function readFile(url: string, via: SitemapFile["via"], options: DiscoverOptions) {
  const page = await options.get(url);
  if (page.status !== 200 || !page.raw) return { file: absentOrInvalid(url, via, page), children: [], listed: [] };
  const base = { url, status: page.status, via, urls: 0, gzip: false };
  if (page.truncated)
    return {
      file: { ...base, kind: "invalid" as const, error: "more than 50 MB: reading stopped at the cap" },
      children: [],
      listed: [],
    };
  const parsed = await parseSitemap(page.raw, options.now);
  if (parsed.kind === "invalid")
    return {
      file: { ...base, gzip: parsed.gzip, kind: "invalid" as const, error: parsed.error },
      children: [],
      listed: [],
    };
  if (parsed.kind === "index") {
    return {
      file: { ...base, gzip: parsed.gzip, kind: "index" as const, urls: parsed.sitemaps.length },
      children: parsed.sitemaps,
      listed: [],
    };
  }
  const file: SitemapFile = { ...base, gzip: parsed.gzip, kind: "urlset", urls: parsed.urls.length };
  if (parsed.badLastmod.length > 0) file.badLastmod = parsed.badLastmod;
  if (parsed.hreflang) file.hreflang = parsed.hreflang;
  if (parsed.overLimit) {
    file.kind = "invalid";
    file.error = "more than 50,000 URLs (only the first 50,000 were read)";
  }
  return { file, children: [], listed: parsed.urls };
}
