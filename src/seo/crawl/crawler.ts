/**
 * The bounded, polite crawler. Every URL is checked against its origin's robots.txt before it
 * is requested (redirect hops included); requests per host are spaced and limited; a crawl
 * that hits a bound stops cleanly and says which bound. Page bodies go to `visit` and are
 * dropped: only the frontier's compact entries outlive a page.
 * @module
 */
import { RobotsCache, type RobotsInfo } from "../robots/robots-cache.ts";
import { discoverSitemaps, type SitemapResult } from "../sitemap/discover.ts";
import { type CrawlBounds, POLICY } from "./bounds.ts";
import { type FetchedPage, fetchBytes, fetchPage, type HttpRequest } from "./fetch-page.ts";
import { Frontier, type QueueName, type UrlEntry } from "./frontier.ts";
import { HostGate, retryAfterMs } from "./host-gate.ts";
import { isLoopback, isSameSite, normaliseUrl, sitePrefixes } from "./url.ts";

export interface CrawlDeps {
  fetch: typeof fetch;
  /** A lighter HTTP primitive than `fetch`, when the runtime has one. */
  request?: HttpRequest;
  userAgent: string;
  /** The robots.txt product token (the first word of the user agent). */
  productToken: string;
  signal?: AbortSignal;
  onProgress?(progress: CrawlProgress): void;
  /** No gap between requests: refused unless the target is a loopback address. */
  politenessOff?: boolean;
}

export interface CrawlProgress {
  pages: number;
  maxPages: number;
  queued: number;
  url: string;
}

/** What a visited page leads to. */
export interface PageVisit {
  links: string[];
  resources: string[];
  /** Canonical and hreflang targets: fetched (as pages) to verify them, without a depth. */
  targets: string[];
}

/** Called once per fetched page; `analyseAs` is the URL the content belongs to, if it should be analysed. */
export type Visitor = (page: FetchedPage, entry: UrlEntry, analyseAs: string | undefined) => PageVisit;

export interface CrawlResult {
  start: string;
  entries: Map<string, UrlEntry>;
  robots: RobotsInfo[];
  sitemaps: SitemapResult | undefined;
  /** Bounds hit, e.g. "max_pages"; empty when the crawl finished. */
  truncated: string[];
  stoppedHosts: string[];
  pages: number;
  resources: number;
  requests: number;
  durationMs: number;
}

export class CrawlRefused extends Error {
  readonly code: "ROBOTS_DISALLOWED" | "POLITENESS_OFF_NOT_LOOPBACK" | "UNREACHABLE";
  constructor(code: CrawlRefused["code"], message: string) {
    super(message);
    this.code = code;
  }
}

const retriable = (status: number) => status === 0 || status === 429 || status >= 500;

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
  const gate = new HostGate(deps.politenessOff ? 0 : bounds.minIntervalMs, POLICY.stopHostAfter);
  const inScope = (url: URL) => isSameSite(url, root);
  const prefixes = sitePrefixes(root);
  const inScopeText = (normalised: string) => prefixes.some((prefix) => normalised.startsWith(prefix));
  const request = {
    fetch: deps.fetch,
    ...(deps.request ? { request: deps.request } : {}),
    signal,
    timeoutMs: bounds.timeoutMs,
    userAgent: deps.userAgent,
  };
  const politeGet = async (url: string, limits: { maxRedirects: number; maxBytes: number }) => {
    await gate.take(new URL(url).origin, signal);
    return fetchPage(url, {
      ...request,
      ...limits,
      beforeHop: async (hop) => void (await gate.take(hop.origin, signal)),
    });
  };
  const robots = new RobotsCache({ productToken: deps.productToken, get: politeGet });
  const robotsFor = async (origin: string) => {
    const info = await robots.info(origin);
    if (info.crawlDelaySeconds !== undefined && !deps.politenessOff) {
      gate.raiseInterval(origin, Math.min(info.crawlDelaySeconds * 1000, POLICY.crawlDelayCapMs));
    }
    return info;
  };
  const startRobots = await robotsFor(root.origin);
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
      get: async (url) => {
        const target = new URL(url);
        const allowed = inScope(target)
          ? (await robotsFor(target.origin)).robots.isAllowed(`${target.pathname}${target.search}`)
          : false;
        if (!allowed && !startRobots.sitemaps.includes(url))
          return {
            url,
            finalUrl: url,
            status: 0,
            headers: new Headers(),
            redirects: [],
            body: "",
            truncated: false,
            bytes: 0,
            timingMs: 0,
            error: "blocked by robots.txt or off-site",
          };
        await gate.take(target.origin, signal);
        result.requests++;
        return fetchBytes(url, {
          ...request,
          maxBytes: POLICY.sitemapBytes,
          maxRedirects: bounds.maxRedirects,
        });
      },
      inScope,
      maxFiles: POLICY.maxSitemapFiles,
      maxUrls: Math.min(POLICY.maxSitemapUrls, bounds.maxPages * 10),
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

  const fetchEntry = async (entry: UrlEntry): Promise<FetchedPage | undefined> => {
    const url = new URL(entry.url);
    const isResource = entry.kind === "resource";
    for (let attempt = 0; ; attempt++) {
      await gate.take(url.origin, signal);
      if (signal.aborted) return undefined;
      const page = await fetchPage(entry.url, {
        ...request,
        maxBytes: isResource ? 0 : bounds.maxBytes,
        maxRedirects: bounds.maxRedirects,
        beforeHop: async (hop) => {
          if (!inScope(hop)) return "off-site redirect";
          if (!(await robotsFor(hop.origin)).robots.isAllowed(`${hop.pathname}${hop.search}`))
            return "redirect target blocked by robots.txt";
          await gate.take(hop.origin, signal);
          return undefined;
        },
      });
      if (signal.aborted) return undefined;
      result.requests += 1 + page.redirects.length;
      const stopped = gate.record(url.origin, page.status);
      if (stopped) result.stoppedHosts.push(url.origin);
      if (!retriable(page.status) || attempt >= bounds.retries || gate.isStopped(url.origin)) return page;
      gate.pause(
        url.origin,
        retryAfterMs(
          page.headers.get("retry-after"),
          Date.now(),
          POLICY.defaultBackoffMs,
          POLICY.retryAfterCapMs,
        ),
      );
    }
  };

  const process = async (entry: UrlEntry): Promise<void> => {
    const url = new URL(entry.url);
    if (gate.isStopped(url.origin))
      return void Object.assign(entry, { state: "skipped", reason: "host stopped after repeated 5xx/429" });
    if (!(await robotsFor(url.origin)).robots.isAllowed(`${url.pathname}${url.search}`)) {
      return void Object.assign(entry, { state: "blocked", reason: "robots.txt" });
    }
    const page = await fetchEntry(entry);
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
    deps.onProgress?.({
      pages: result.pages,
      maxPages: bounds.maxPages,
      queued: frontier.pending("links") + frontier.pending("sitemap"),
      url: entry.url,
    });
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
        if (entry.state === "done") entry.kind === "resource" ? result.resources++ : result.pages++;
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
  result.robots = await robots.all();
  result.truncated = truncationReasons(frontier, deadline.signal.aborted, deps.signal?.aborted === true);
  result.durationMs = performance.now() - started;
  return result;
}

function truncationReasons(frontier: Frontier, outOfTime: boolean, cancelled: boolean): string[] {
  const reasons: string[] = [];
  let queuedPages = 0;
  let queuedResources = 0;
  let deep = 0;
  for (const entry of frontier.entries.values()) {
    if (entry.state === "queued") entry.kind === "page" ? queuedPages++ : queuedResources++;
    if (entry.reason === "max_depth") deep++;
  }
  if (cancelled) reasons.push("cancelled");
  // Pages come before subresources: a budget that ran out on resources only says so.
  else if (outOfTime) reasons.push(queuedPages > 0 ? "max_seconds" : "max_seconds_resources_unchecked");
  else if (queuedPages > 0) reasons.push("max_pages");
  if (deep > 0) reasons.push("max_depth");
  if (frontier.dropped > 0) reasons.push("frontier_full");
  return reasons;
}
