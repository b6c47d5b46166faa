/**
 * The bounded, polite crawler. Every URL is checked against its origin's robots.txt before it
 * is requested (redirect hops included); requests per host are spaced and limited; a crawl
 * that hits a bound stops cleanly and says which bound. Page bodies go to `visit` and are
 * dropped: only the frontier's compact entries outlive a page.
 * @module
 */
import { discoverSitemaps } from "../sitemap/discover.ts";
import { type CrawlBounds, POLICY } from "./bounds.ts";
import { type CrawlDeps, CrawlRefused, type CrawlResult, type Visitor } from "./crawl-types.ts";
import type { FetchedPage } from "./fetch-page.ts";
import { Frontier, type QueueName, type UrlEntry } from "./frontier.ts";
import { PoliteClient } from "./polite-client.ts";
import { isLoopback, isSameSite, normaliseUrl, sitePrefixes } from "./url.ts";

export type { CrawlDeps, CrawlProgress, CrawlResult, PageVisit, Visitor } from "./crawl-types.ts";
export { CrawlRefused } from "./crawl-types.ts";

export async function crawlSite(
  startUrl: string,
  bounds: CrawlBounds,
  deps: CrawlDeps,
  visit: Visitor,
): Promise<CrawlResult> {
  const started = performance.now();
  const start = normaliseUrl(startUrl);
  if (!start) throw new TypeError(`not an http(s) URL: ${startUrl}`);
  const root = new URL(start);
  if (deps.politenessOff && !isLoopback(root)) {
    throw new CrawlRefused(
      "POLITENESS_OFF_NOT_LOOPBACK",
      "politeness can be switched off for loopback targets only",
    );
  }
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), bounds.maxSeconds * 1000);
  const signal = deps.signal ? AbortSignal.any([deps.signal, deadline.signal]) : deadline.signal;
  const inScope = (url: URL) => isSameSite(url, root);
  const prefixes = sitePrefixes(root);
  const inScopeText = (normalised: string) => prefixes.some((prefix) => normalised.startsWith(prefix));
  const client = new PoliteClient({
    fetch: deps.fetch,
    ...(deps.request ? { request: deps.request } : {}),
    ...(deps.textSink ? { textSink: deps.textSink } : {}),
    userAgent: deps.userAgent,
    productToken: deps.productToken,
    bounds,
    signal,
    politenessOff: deps.politenessOff === true,
    inScope,
  });
  const startRobots = await client.robotsFor(root.origin);
  if (startRobots.status === 0) {
    clearTimeout(timer);
    throw new CrawlRefused("UNREACHABLE", `could not reach ${root.origin} (${startRobots.reason})`);
  }
  if (!startRobots.robots.isAllowed(`${root.pathname}${root.search}`)) {
    clearTimeout(timer);
    throw new CrawlRefused(
      "ROBOTS_DISALLOWED",
      `${startRobots.url} (${startRobots.reason}) disallows ${start} for ${deps.productToken}`,
    );
  }
  const frontier = new Frontier(bounds.maxPages * POLICY.frontierPerPage + POLICY.maxSitemapUrls);
  const result: CrawlResult = {
    start,
    entries: frontier.entries,
    robots: [],
    sitemaps: undefined,
    truncated: [],
    stoppedHosts: [],
    pages: 0,
    resources: 0,
    requests: 0,
    durationMs: 0,
  };
  const first = frontier.entry(start, "page") as UrlEntry;
  first.depth = 0;
  frontier.enqueue(first, "links");
  if (bounds.sitemaps) {
    result.sitemaps = await discoverSitemaps(startRobots.sitemaps, root.origin, {
      get: (url) => client.fetchSitemap(url, startRobots.sitemaps.includes(url)),
      inScope,
      maxFiles: POLICY.maxSitemapFiles,
      maxUrls: Math.min(POLICY.maxSitemapUrls, bounds.maxPages * 10),
      now: (deps.now?.() ?? new Date()).getTime(),
    });
    for (const url of result.sitemaps.urls) {
      const entry = frontier.entry(url, "page");
      if (!entry) break;
      entry.inSitemap = true;
      frontier.enqueue(entry, "sitemap");
    }
  }

  let pagesStarted = 0;
  let resourcesStarted = 0;
  let inFlight = 0;
  const waiters: (() => void)[] = [];
  const notify = () => {
    for (const resolve of waiters.splice(0)) resolve();
  };
  signal.addEventListener("abort", notify, { once: true });
  const allowed = (queue: QueueName) =>
    queue === "resources" ? resourcesStarted < bounds.maxResources : pagesStarted < bounds.maxPages;

  const add = (
    url: string,
    kind: UrlEntry["kind"],
    queue: QueueName,
    from: UrlEntry | undefined,
    depth: number | undefined,
  ) => {
    if (!inScopeText(url)) return;
    const entry = frontier.entry(url, kind);
    if (!entry) return;
    if (from && queue === "links") {
      entry.inlinks++;
      entry.referrer ??= from.url;
    } else if (from) entry.referrer ??= from.url;
    if (depth !== undefined && (entry.depth === undefined || depth < entry.depth)) entry.depth = depth;
    if (queue === "links" && depth !== undefined && depth > bounds.maxDepth) {
      if (entry.state === "unqueued") {
        entry.state = "skipped";
        entry.reason = "max_depth";
      }
      return;
    }
    frontier.enqueue(entry, queue);
    notify();
  };

  const process = async (entry: UrlEntry): Promise<void> => {
    const url = new URL(entry.url);
    if (client.gate.isStopped(url.origin))
      return void Object.assign(entry, { state: "skipped", reason: "host stopped after repeated 5xx/429" });
    if (!(await client.isAllowed(url)))
      return void Object.assign(entry, { state: "blocked", reason: "robots.txt" });
    const page = await client.fetchEntry(entry.url, entry.kind === "resource");
    if (!page) return void Object.assign(entry, { state: "queued" });
    Object.assign(entry, {
      state: "done",
      status: page.status,
      finalUrl: page.finalUrl,
      hops: page.redirects.length,
      ...(page.error ? { error: page.error } : {}),
    });
    if (entry.kind === "resource") return;
    const analyseAs = claimFinal(entry, page);
    const found = visit(page, entry, analyseAs);
    const depth = entry.depth === undefined ? undefined : entry.depth + 1;
    const owner = analyseAs ? (frontier.entries.get(analyseAs) ?? entry) : entry;
    for (const link of new Set(found.links)) add(link, "page", "links", owner, depth);
    for (const target of found.targets) add(target, "page", "targets", undefined, undefined);
    if (bounds.maxResources > 0)
      for (const res of new Set(found.resources)) add(res, "resource", "resources", owner, undefined);
  };

  /** The URL whose content this response is, if nobody else has claimed it. */
  const claimFinal = (entry: UrlEntry, page: FetchedPage): string | undefined => {
    if (page.redirects.length === 0) return entry.url;
    if (page.status >= 300 && page.status < 400) return undefined;
    const final = normaliseUrl(page.finalUrl);
    if (!final || !inScope(new URL(final))) return undefined;
    const target = frontier.entry(final, "page");
    if (!target || target.state === "done") return undefined;
    Object.assign(target, { state: "done", status: page.status, finalUrl: final, hops: 0 });
    target.depth ??= entry.depth;
    return final;
  };

  const progress = (url: string) =>
    deps.onProgress?.({
      pages: result.pages,
      maxPages: bounds.maxPages,
      queued: frontier.pending("links") + frontier.pending("sitemap"),
      url,
    });

  const worker = async (): Promise<void> => {
    while (!signal.aborted) {
      const entry = frontier.next(allowed);
      if (!entry) {
        if (inFlight === 0) return;
        await new Promise<void>((resolve) => waiters.push(resolve));
        continue;
      }
      inFlight++;
      if (entry.kind === "resource") resourcesStarted++;
      else pagesStarted++;
      try {
        await process(entry);
        if (entry.state === "done") {
          if (entry.kind === "resource") result.resources++;
          else result.pages++;
        }
        if (entry.state === "done" && entry.kind === "page") progress(entry.url);
        else if (entry.kind === "page" && entry.state !== "queued") pagesStarted--;
      } finally {
        inFlight--;
        notify();
      }
    }
  };

  const workers = Array.from({ length: bounds.concurrency }, worker);
  await Promise.all(workers);
  clearTimeout(timer);
  result.robots = await client.robots.all();
  result.requests = client.requests;
  result.stoppedHosts = client.stoppedHosts;
  result.truncated = frontier.truncation(deadline.signal.aborted, deps.signal?.aborted === true);
  result.durationMs = performance.now() - started;
  return result;
}
