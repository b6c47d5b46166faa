/**
 * One crawl's state and steps (`crawlSite` in crawler.ts runs them in order): the frontier,
 * robots.txt and politeness through the client, the production twin, the start page, sitemap
 * discovery, the workers that take queued URLs, and admission of what pages lead to.
 * @module
 */
import { ApiError, ERRORS } from "../../shared/errors.ts";
import { conventionalSitemaps, discoverSitemaps } from "../sitemap/discover.ts";
import { type CrawlBounds, POLICY } from "./bounds.ts";
import { type CrawlDeps, type CrawlResult, emptyCrawlResult, type PageVisit, type Visitor } from "./crawl-types.ts";
import type { FetchedPage } from "../fetch/fetch-page.ts";
import type { SubRequestGate } from "../render/renderer.ts";
import { Frontier, type QueueName, type UrlEntry } from "./frontier.ts";
import { pageOfRecord, pageRecord, ReadHeaders } from "./crawl-journal.ts";
import { PoliteClient } from "./polite-client.ts";
import { toLocal, type Twin, twinFromCanonical } from "./twin.ts";
import { unreachableStart } from "./unreachable.ts";
import { isSameSite, normaliseUrl, sitePrefixes } from "../fetch/url.ts";

/** Queued records allowed per page still in the budget: the slack covers URLs robots.txt blocks. */
const ROOM_FACTOR = 1.25;
const ROOM_SLACK = 64;

export class CrawlRun {
  readonly root: URL;
  readonly frontier: Frontier;
  readonly result: CrawlResult;
  readonly #bounds: CrawlBounds;
  readonly #deps: CrawlDeps;
  readonly #visit: Visitor;
  readonly #client: PoliteClient;
  readonly #signal: AbortSignal;
  readonly #prefixes: string[];
  readonly #waiters: (() => void)[] = [];
  #twin: Twin | undefined;
  #linkSitemaps: string[] = [];
  #pagesStarted = 0;
  #resourcesStarted = 0;
  #inFlight = 0;

  constructor(start: string, bounds: CrawlBounds, deps: CrawlDeps, visit: Visitor, deadline: AbortSignal) {
    this.root = new URL(start);
    this.#bounds = bounds;
    this.#deps = deps;
    this.#visit = visit;
    this.#twin = deps.twin ?? undefined;
    this.#signal = deps.signal ? AbortSignal.any([deps.signal, deadline]) : deadline;
    this.#signal.addEventListener("abort", () => this.#notify(), { once: true });
    this.#prefixes = sitePrefixes(this.root);
    this.#client = new PoliteClient({
      ...deps,
      bounds,
      signal: this.#signal,
      politenessOff: deps.politenessOff === true,
      inScope: (url: URL) => isSameSite(url, this.root),
    });
    this.frontier = new Frontier(Math.min(POLICY.seenCap, bounds.maxPages * POLICY.seenPerPage + 10_000));
    this.result = emptyCrawlResult(start, this.frontier.entries);
  }

  /** robots.txt of the start origin: unreachable or disallowing the start URL ends the crawl. */
  async checkStart(): Promise<void> {
    const robots = await this.#client.robotsFor(this.root.origin);
    if (robots.status === 0) throw unreachableStart(this.root.origin, robots.error ?? robots.reason);
    if (!robots.robots.isAllowed(`${this.root.pathname}${this.root.search}`)) {
      const what = `${robots.url} (${robots.reason}) disallows ${this.result.start} for ${this.#deps.productToken}`;
      throw new ApiError("ROBOTS_DISALLOWED", `${what}; ${ERRORS.ROBOTS_DISALLOWED.hint}`);
    }
  }

  /** The start page alone: its canonical may name the production twin, its link rel=sitemap a sitemap. */
  async crawlStart(): Promise<void> {
    const first = this.frontier.create(this.result.start, "page");
    first.depth = 0;
    const visited = await this.#take(first);
    if (!visited) return;
    if (this.#deps.twin === undefined && visited.visit.canonical) {
      const page = visited.owner.finalUrl ?? visited.owner.url;
      this.#twin = twinFromCanonical(page, visited.visit.canonical, "start-page");
    }
    this.#linkSitemaps = visited.visit.sitemaps ?? [];
    this.#follow(visited.owner, visited.visit);
  }

  async readSitemaps(): Promise<void> {
    const robots = await this.#client.robotsFor(this.root.origin);
    const origin = this.root.origin;
    this.result.sitemaps = await discoverSitemaps(
      { robots: robots.sitemaps, conventional: conventionalSitemaps(this.root), links: this.#linkSitemaps },
      {
        get: (url) => this.#client.fetchSitemap(url, robots.sitemaps.includes(url)),
        inScope: (url) => isSameSite(url, this.root),
        toLocal: (url) => toLocal(url, this.#twin, origin),
        maxFiles: POLICY.maxSitemapFiles,
        maxUrls: Math.min(POLICY.maxSitemapUrls, this.#bounds.maxPages * 10),
        now: (this.#deps.now?.() ?? new Date()).getTime(),
      },
    );
    this.frontier.setSitemap(this.result.sitemaps.urls);
  }

  async work(): Promise<void> {
    while (!this.#signal.aborted) {
      const entry = this.frontier.next((queue) => this.#allowed(queue));
      if (!entry) {
        if (this.#inFlight === 0) return;
        await new Promise<void>((resolve) => this.#waiters.push(resolve));
        continue;
      }
      this.#inFlight++;
      try {
        const visited = await this.#take(entry);
        if (visited) this.#follow(visited.owner, visited.visit);
      } finally {
        this.#inFlight--;
        this.#notify();
      }
    }
  }

  async afterPages(): Promise<void> {
    if (!this.#signal.aborted) await this.#deps.afterPages?.(this.#gate, this.#signal);
  }

  async finish(outOfTime: boolean, durationMs: number): Promise<CrawlResult> {
    const { result, frontier } = this;
    result.robots = await this.#client.robots.all();
    result.requests = this.#client.requests;
    result.stoppedHosts = this.#client.stoppedHosts;
    result.truncated = frontier.truncation(outOfTime, this.#deps.signal?.aborted === true);
    result.cuts = { notKept: frontier.notKept, byReason: { ...frontier.cut }, patterns: frontier.patterns(5) };
    if (this.#twin) result.twin = this.#twin;
    result.durationMs = durationMs;
    return result;
  }

  #inScope(url: string): boolean {
    return this.#prefixes.some((prefix) => url.startsWith(prefix));
  }

  #notify(): void {
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  #allowed(queue: QueueName): boolean {
    return queue === "resources"
      ? this.#resourcesStarted < this.#bounds.maxResources
      : this.#pagesStarted < this.#bounds.maxPages;
  }

  /** Fetches and visits one entry, counting it against its budget unless it was never requested. */
  async #take(entry: UrlEntry): Promise<{ visit: PageVisit; owner: UrlEntry } | undefined> {
    const resource = entry.kind === "resource";
    if (resource) this.#resourcesStarted++;
    else this.#pagesStarted++;
    const visited = await this.#fetch(entry);
    if (entry.state === "done") {
      if (resource) this.result.resources++;
      else {
        this.result.pages++;
        this.#progress(entry.url);
      }
    } else if (!resource && entry.state !== "queued") this.#pagesStarted--;
    return visited;
  }

  async #fetch(entry: UrlEntry): Promise<{ visit: PageVisit; owner: UrlEntry } | undefined> {
    const url = new URL(entry.url);
    if (this.#client.gate.isStopped(url.origin)) {
      entry.state = "skipped";
      entry.reason = "host stopped after repeated 5xx/429";
      return undefined;
    }
    if (!(await this.#client.isAllowed(url))) {
      entry.state = "blocked";
      entry.reason = "robots.txt";
      return undefined;
    }
    const journal = this.#deps.journal;
    const replayed = journal?.replay(entry.url);
    const page = replayed ? pageOfRecord(replayed) : await this.#client.fetchEntry(entry.url, entry.kind === "resource");
    if (!page) return undefined; // the crawl stopped meanwhile: it stays queued
    const headers = journal && !replayed ? (page.headers = new ReadHeaders(page.headers)) : undefined;
    entry.state = "done";
    entry.status = page.status;
    entry.finalUrl = page.finalUrl;
    entry.hops = page.redirects.length;
    if (page.error) entry.error = page.error;
    if (entry.kind === "resource") {
      if (headers) journal?.record(pageRecord(page, headers));
      return undefined;
    }
    const analyseAs = this.#claimFinal(entry, page);
    const visit = await this.#visit(page, entry, analyseAs, this.#gate);
    // Written once the visit is done: a page interrupted half-way is fetched again on resuming.
    if (headers) journal?.record(pageRecord(page, headers));
    const owner = analyseAs ? (this.frontier.entries.get(analyseAs) ?? entry) : entry;
    return { visit, owner };
  }

  /** Requests a rendered page makes, held to the crawl's own rules (see `Visitor`). */
  readonly #gate: SubRequestGate = async (href) => {
    if (this.#signal.aborted) return "the crawl stopped (a bound was reached)";
    if (!URL.canParse(href)) return "not a URL";
    const url = new URL(href);
    if (url.protocol === "data:" || url.protocol === "blob:") return undefined;
    if (!isSameSite(url, this.root)) return "off the audited site";
    if (this.#client.gate.isStopped(url.origin)) return "host stopped after repeated 5xx/429";
    if (!(await this.#client.isAllowed(url))) return "robots.txt";
    await this.#client.gate.take(url.origin, this.#signal);
    this.#client.requests++;
    return undefined;
  };

  /** The URL whose content this response is, if nobody else has claimed it. */
  #claimFinal(entry: UrlEntry, page: FetchedPage): string | undefined {
    if (page.redirects.length === 0) return entry.url;
    if (page.status >= 300 && page.status < 400) return undefined;
    const final = normaliseUrl(page.finalUrl);
    if (!final || !isSameSite(new URL(final), this.root)) return undefined;
    const known = this.frontier.entries.get(final);
    if (known?.state === "done") return undefined;
    const target = known ?? this.frontier.create(final, "page");
    target.state = "done";
    target.status = page.status;
    target.finalUrl = final;
    target.hops = 0;
    target.depth ??= entry.depth;
    return final;
  }

  #follow(owner: UrlEntry, found: PageVisit): void {
    const depth = owner.depth === undefined ? undefined : owner.depth + 1;
    for (const link of new Set(found.links)) this.#add(link, "page", "links", owner, depth);
    for (const target of found.targets) this.#add(target, "page", "targets", undefined, undefined);
    if (this.#bounds.maxResources > 0)
      for (const res of new Set(found.resources)) this.#add(res, "resource", "resources", owner, undefined);
  }

  /** Room for one more queued record of this kind while the budget could still reach it. */
  #hasRoom(kind: UrlEntry["kind"]): boolean {
    const { frontier } = this;
    const [pending, budgetLeft] =
      kind === "resource"
        ? [frontier.pending("resources"), this.#bounds.maxResources - this.#resourcesStarted]
        : [frontier.pending("links") + frontier.pending("targets"), this.#bounds.maxPages - this.#pagesStarted];
    return pending < budgetLeft * ROOM_FACTOR + ROOM_SLACK;
  }

  #add(
    found: string,
    kind: UrlEntry["kind"],
    queue: "links" | "targets" | "resources",
    from: UrlEntry | undefined,
    depth: number | undefined,
  ): void {
    const url = this.#twin ? toLocal(found, this.#twin, this.root.origin) : found;
    if (!this.#inScope(url)) return;
    let entry = this.frontier.entries.get(url);
    if (!entry) {
      if (queue === "links" && depth !== undefined && depth > this.#bounds.maxDepth)
        return this.frontier.unkeep(url, "max_depth");
      if (!this.#hasRoom(kind)) return this.frontier.unkeep(url, "max_pages");
      entry = this.frontier.create(url, kind);
      this.frontier.enqueue(entry, queue);
      this.#notify();
    }
    if (from && queue === "links") entry.inlinks++;
    if (from) entry.referrer ??= from.url;
    if (depth !== undefined && (entry.depth === undefined || depth < entry.depth)) entry.depth = depth;
  }

  #progress(url: string): void {
    const { frontier } = this;
    this.#deps.onProgress?.({
      pages: this.result.pages,
      maxPages: this.#bounds.maxPages,
      queued: frontier.pending("links") + frontier.pending("targets") + frontier.pending("sitemap"),
      url,
    });
  }
}
