/**
 * Every request the crawl makes goes through here: robots.txt per origin (RFC 9309) before
 * any URL or redirect hop, the per-host gap (raised to Crawl-delay, clamped), retries that
 * honour Retry-After, and stopping a host after a run of failures.
 * @module
 */
import { RobotsCache, type RobotsInfo } from "../robots/robots-cache.ts";
import { robotsPathOf } from "../robots/robots.ts";
import { type CrawlBounds, POLICY } from "./bounds.ts";
import { type FetchedBytes, type FetchedPage, type FetchPageOptions, fetchBytes, fetchPage, pageOf } from "../fetch/fetch-page.ts";
import type { CrawlDeps } from "./crawl-types.ts";
import { HostGate, retryAfterMs } from "./host-gate.ts";

interface PoliteClientOptions extends Pick<CrawlDeps, "fetch" | "request" | "userAgent" | "productToken" | "textSink"> {
  bounds: CrawlBounds;
  signal: AbortSignal;
  politenessOff: boolean;
  inScope(url: URL): boolean;
}

const retriable = (status: number) => status === 0 || status === 429 || status >= 500;

export class PoliteClient {
  readonly gate: HostGate;
  readonly robots: RobotsCache;
  /** HTTP requests sent, redirect hops included. */
  requests = 0;
  readonly stoppedHosts: string[] = [];
  readonly #options: PoliteClientOptions;
  readonly #base: FetchPageOptions;

  constructor(options: PoliteClientOptions) {
    this.#options = options;
    this.gate = new HostGate(options.politenessOff ? 0 : options.bounds.minIntervalMs, POLICY.stopHostAfter);
    this.#base = {
      fetch: options.fetch,
      ...(options.request ? { request: options.request } : {}),
      signal: options.signal,
      timeoutMs: options.bounds.timeoutMs,
      userAgent: options.userAgent,
    };
    this.robots = new RobotsCache({
      productToken: options.productToken,
      get: async (url, limits) => {
        await this.gate.take(new URL(url).origin, options.signal);
        const page = await fetchPage(url, {
          ...this.#base,
          ...limits,
          beforeHop: async (hop) => void (await this.gate.take(hop.origin, options.signal)),
        });
        this.requests += 1 + page.redirects.length;
        return page;
      },
    });
  }

  /** The origin's robots.txt outcome; its Crawl-delay raises the host's gap (clamped). */
  async robotsFor(origin: string): Promise<RobotsInfo> {
    const info = await this.robots.info(origin);
    if (info.crawlDelaySeconds !== undefined && !this.#options.politenessOff) {
      this.gate.raiseInterval(origin, Math.min(info.crawlDelaySeconds * 1000, POLICY.crawlDelayCapMs));
    }
    return info;
  }

  async isAllowed(url: URL): Promise<boolean> {
    return (await this.robotsFor(url.origin)).robots.isAllowed(robotsPathOf(url));
  }

  /** A sitemap file: in scope only; robots-checked unless robots.txt itself listed it. */
  async fetchSitemap(url: string, listedInRobots: boolean): Promise<FetchedBytes> {
    const target = new URL(url);
    const refused = !this.#options.inScope(target)
      ? "off-site sitemap not fetched"
      : !listedInRobots && !(await this.isAllowed(target))
        ? "blocked by robots.txt"
        : undefined;
    if (refused) return pageOf(url, { error: refused });
    await this.gate.take(target.origin, this.#options.signal);
    const page = await fetchBytes(url, {
      ...this.#base,
      maxBytes: POLICY.sitemapBytes,
      maxRedirects: this.#options.bounds.maxRedirects,
      beforeHop: (hop) => this.#vetHop(hop),
    });
    this.requests += 1 + page.redirects.length;
    return page;
  }

  async #vetHop(hop: URL): Promise<string | undefined> {
    if (!this.#options.inScope(hop)) return "off-site redirect";
    if (!(await this.isAllowed(hop))) return "redirect target blocked by robots.txt";
    await this.gate.take(hop.origin, this.#options.signal);
    return undefined;
  }

  /** Fetches a page or subresource with retries; undefined when the crawl was stopped meanwhile. */
  async fetchEntry(entryUrl: string, isResource: boolean): Promise<FetchedPage | undefined> {
    const { bounds, signal } = this.#options;
    const origin = new URL(entryUrl).origin;
    for (let attempt = 0; ; attempt++) {
      await this.gate.take(origin, signal);
      if (signal.aborted) return undefined;
      const page = await fetchPage(entryUrl, {
        ...this.#base,
        maxBytes: isResource ? 0 : bounds.maxBytes,
        maxRedirects: bounds.maxRedirects,
        ...(isResource || !this.#options.textSink ? {} : { textSink: this.#options.textSink }),
        beforeHop: (hop) => this.#vetHop(hop),
      });
      if (signal.aborted) return undefined;
      this.requests += 1 + page.redirects.length;
      if (this.gate.record(origin, page.status)) this.stoppedHosts.push(origin);
      if (!retriable(page.status) || attempt >= bounds.retries || this.gate.isStopped(origin)) return page;
      const wait = retryAfterMs(
        page.headers.get("retry-after"),
        Date.now(),
        POLICY.defaultBackoffMs,
        POLICY.retryAfterCapMs,
      );
      this.gate.pause(origin, wait);
    }
  }
}
