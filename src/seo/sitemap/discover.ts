/**
 * Sitemap discovery for one site: robots.txt `Sitemap:` lines plus `/sitemap.xml`, following
 * indexes, bounded in files and URLs. Each file's outcome is kept for the sitemap checks.
 * @module
 */
import type { FetchedBytes } from "../crawl/fetch-page.ts";
import { normaliseUrl } from "../crawl/url.ts";
import { parseSitemap } from "./sitemap.ts";

export interface SitemapFile {
  url: string;
  status: number;
  kind: "urlset" | "index" | "invalid" | "absent";
  /** Where it was found: robots.txt, the /sitemap.xml convention, or an index. */
  via: "robots" | "default" | "index";
  urls: number;
  gzip: boolean;
  error?: string;
  /** <lastmod> values that are not W3C Datetime or lie in the future (up to 5). */
  badLastmod?: string[];
}

export interface SitemapResult {
  files: SitemapFile[];
  /** Normalised in-scope URLs listed, deduplicated, capped. */
  urls: string[];
  /** Listed URLs outside the site (not used). */
  offSite: number;
  /** True when files or URLs beyond the caps were not read. */
  capped: boolean;
}

export interface DiscoverOptions {
  get(url: string): Promise<FetchedBytes>;
  inScope(url: URL): boolean;
  maxFiles: number;
  maxUrls: number;
  /** Current time (ms), for the future-lastmod check. */
  now?: number;
}

export async function discoverSitemaps(
  fromRobots: string[],
  origin: string,
  options: DiscoverOptions,
): Promise<SitemapResult> {
  const result: SitemapResult = { files: [], urls: [], offSite: 0, capped: false };
  const queue: { url: string; via: SitemapFile["via"] }[] = fromRobots.map((url) => ({
    url,
    via: "robots" as const,
  }));
  if (!fromRobots.some((url) => normaliseUrl(url) === `${origin}/sitemap.xml`))
    queue.push({ url: `${origin}/sitemap.xml`, via: "default" });
  const seenFiles = new Set<string>();
  const seenUrls = new Set<string>();
  while (queue.length > 0) {
    const next = queue.shift() as { url: string; via: SitemapFile["via"] };
    const url = normaliseUrl(next.url);
    if (!url || seenFiles.has(url)) continue;
    if (seenFiles.size >= options.maxFiles) {
      result.capped = true;
      break;
    }
    seenFiles.add(url);
    const file = await readFile(url, next.via, options);
    result.files.push(file.file);
    for (const child of file.children) queue.push({ url: child, via: "index" });
    for (const listed of file.listed) {
      const normal = normaliseUrl(listed);
      if (!normal || !options.inScope(new URL(normal))) {
        result.offSite++;
        continue;
      }
      if (seenUrls.has(normal)) continue;
      if (seenUrls.size >= options.maxUrls) {
        result.capped = true;
        break;
      }
      seenUrls.add(normal);
    }
  }
  result.urls = [...seenUrls];
  return result;
}

async function readFile(url: string, via: SitemapFile["via"], options: DiscoverOptions) {
  const page = await options.get(url);
  const base = { url, status: page.status, via, urls: 0, gzip: false };
  if (page.status !== 200 || !page.raw) {
    const absent = via === "default" && page.status === 404;
    const error = page.status === 0 ? (page.error ?? "unreachable") : `status ${page.status}`;
    return {
      file: {
        ...base,
        kind: absent ? ("absent" as const) : ("invalid" as const),
        ...(absent ? {} : { error }),
      },
      children: [],
      listed: [],
    };
  }
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
  if (parsed.overLimit) {
    file.kind = "invalid";
    file.error = "more than 50,000 URLs (only the first 50,000 were read)";
  }
  return { file, children: [], listed: parsed.urls };
}
