/**
 * Crawl bounds: documented defaults per host class and hard caps per front end. Inputs are
 * validated against the caps at the edge (tool and CLI, `audit/bounds-input.ts`); the crawl
 * core trusts what it is given, so the benchmark can go wider.
 *
 * Defaults depend on where the site runs: a site on the user's own machine or private network
 * (`isOwnMachine`) gets no politeness gap, more parallel requests and budgets that finish a
 * documentation-sized site; a remote site keeps the polite defaults. Caps depend on the front
 * end: an MCP tool call answers an agent within a client's timeout, the CLI may run for hours.
 * @module
 */
export interface CrawlBounds {
  /** HTML pages fetched (each URL requested counts once, redirects included). */
  maxPages: number;
  /** Clicks from the start URL; links found deeper are not followed. */
  maxDepth: number;
  /** Wall-clock budget for the whole crawl. */
  maxSeconds: number;
  /** Parallel requests per host. */
  concurrency: number;
  /** Minimum gap between request starts per host; raised to robots Crawl-delay (clamped). */
  minIntervalMs: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Bytes of a page body read; beyond it the page is audited as truncated. */
  maxBytes: number;
  /** Retries after 429, 5xx or a network error, each waiting Retry-After (clamped). */
  retries: number;
  /** Subresources (images, scripts, stylesheets) checked for breakage; 0 turns it off. */
  maxResources: number;
  /** Discover URLs from sitemaps (robots.txt Sitemap: lines, conventional paths, link rel=sitemap). */
  sitemaps: boolean;
}

export type HostClass = "own-machine" | "remote";
export type FrontEnd = "tool" | "cli";

export type Tunable = "maxPages" | "maxDepth" | "maxSeconds" | "concurrency" | "minIntervalMs" | "timeoutMs";

const REMOTE: Record<Tunable, number> = {
  maxPages: 100,
  maxDepth: 5,
  maxSeconds: 60,
  concurrency: 2,
  minIntervalMs: 500,
  timeoutMs: 15_000,
};

/** The user's own machine or network: no gap, 8 in parallel, a 1,000-page docs site within a minute. */
const OWN_MACHINE: Record<Tunable, number> = {
  maxPages: 1000,
  maxDepth: 10,
  maxSeconds: 60,
  concurrency: 8,
  minIntervalMs: 0,
  timeoutMs: 15_000,
};

/** Defaults per front end and host class: the CLI on the own machine goes to 10,000 pages in 10 minutes. */
export const DEFAULTS: Record<FrontEnd, Record<HostClass, Record<Tunable, number>>> = {
  tool: { remote: REMOTE, "own-machine": OWN_MACHINE },
  cli: { remote: REMOTE, "own-machine": { ...OWN_MACHINE, maxPages: 10_000, maxSeconds: 600 } },
};

const TOOL_CAPS: Record<Tunable, number> = {
  maxPages: 5000,
  maxDepth: 10,
  maxSeconds: 300,
  concurrency: 32,
  minIntervalMs: 10_000,
  timeoutMs: 30_000,
};

/** Hard caps per front end: the CLI's page, depth and time caps are wider, its politeness caps the same. */
export const CAPS: Record<FrontEnd, Record<Tunable, number>> = {
  tool: TOOL_CAPS,
  // Beyond 100,000 pages the page summaries go to disk (audit/page-facts.ts, IN_MEMORY_PAGES).
  cli: { ...TOOL_CAPS, maxPages: 1_000_000, maxDepth: 100, maxSeconds: 86_400 },
};

/** Politeness a remote site always gets, whatever the input asks. */
export const REMOTE_LIMITS = { maxConcurrency: 4, minIntervalMs: 100 } as const;

/** The smallest value each tunable accepts. */
export const MINIMUM: Record<Tunable, number> = {
  maxPages: 1,
  maxDepth: 0,
  maxSeconds: 5,
  concurrency: 1,
  minIntervalMs: 0,
  timeoutMs: 1000,
};

/** Fixed policy (not inputs). */
export const POLICY = {
  maxRedirects: 10,
  maxBytes: 5 * 1024 * 1024,
  retries: 1,
  retryAfterCapMs: 10_000,
  defaultBackoffMs: 1000,
  crawlDelayCapMs: 10_000,
  stopHostAfter: 5,
  maxSitemapFiles: 10,
  maxSitemapUrls: 50_000,
  sitemapBytes: 50 * 1024 * 1024,
  robotsRedirects: 5,
  /** Links followed per page; the rest of a page's links are counted as cut. */
  linksPerPage: 1000,
  /**
   * URLs remembered beyond the records the page budget needs, as 64-bit hashes (16 bytes
   * each): counting what was not crawled stays exact on infinite sites without keeping them.
   */
  seenPerPage: 20,
  seenCap: 2_000_000,
} as const;

export function defaultBounds(overrides: Partial<CrawlBounds> = {}): CrawlBounds {
  return {
    ...REMOTE,
    maxRedirects: POLICY.maxRedirects,
    maxBytes: POLICY.maxBytes,
    retries: POLICY.retries,
    maxResources: REMOTE.maxPages,
    sitemaps: true,
    ...overrides,
  };
}
