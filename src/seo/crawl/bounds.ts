/**
 * Crawl bounds: documented defaults and hard caps. Inputs are validated against the caps at
 * the edge (tool, CLI); the crawl core trusts what it is given, so the benchmark can go wider.
 * @module
 */
import { v } from "../../../deps.ts";

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
  /** Use robots.txt Sitemap: lines and /sitemap.xml to discover URLs. */
  sitemaps: boolean;
}

export const LIMITS = {
  maxPages: { default: 100, min: 1, cap: 1000 },
  maxDepth: { default: 5, min: 0, cap: 10 },
  maxSeconds: { default: 60, min: 5, cap: 300 },
  concurrency: { default: 2, min: 1, cap: 4 },
  minIntervalMs: { default: 500, min: 100, cap: 10_000 },
  timeoutMs: { default: 15_000, min: 1000, cap: 30_000 },
} as const;

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
  /** URLs remembered (queued or seen) per page budget: the frontier stays bounded on infinite sites. */
  frontierPerPage: 20,
} as const;

export function defaultBounds(overrides: Partial<CrawlBounds> = {}): CrawlBounds {
  return {
    maxPages: LIMITS.maxPages.default,
    maxDepth: LIMITS.maxDepth.default,
    maxSeconds: LIMITS.maxSeconds.default,
    concurrency: LIMITS.concurrency.default,
    minIntervalMs: LIMITS.minIntervalMs.default,
    timeoutMs: LIMITS.timeoutMs.default,
    maxRedirects: POLICY.maxRedirects,
    maxBytes: POLICY.maxBytes,
    retries: POLICY.retries,
    maxResources: LIMITS.maxPages.default,
    sitemaps: true,
    ...overrides,
  };
}

const bounded = (limit: { default: number; min: number; cap: number }, what: string) =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(limit.min),
      v.maxValue(limit.cap),
      v.description(`${what} (default ${limit.default}, ${limit.min}–${limit.cap})`),
    ),
  );

/** Input fields for bounds, snake_case as tools take them. */
export const boundsInput = {
  max_pages: bounded(LIMITS.maxPages, "HTML pages to fetch"),
  max_depth: bounded(LIMITS.maxDepth, "clicks from the start URL to follow"),
  max_seconds: bounded(
    LIMITS.maxSeconds,
    "wall-clock budget in seconds; a partial report comes back when it runs out",
  ),
  concurrency: bounded(LIMITS.concurrency, "parallel requests per host"),
  min_interval_ms: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.maxValue(LIMITS.minIntervalMs.cap),
      v.description(
        `minimum gap between requests per host in ms (default ${LIMITS.minIntervalMs.default}; at least ${LIMITS.minIntervalMs.min} except for loopback targets; raised to robots.txt Crawl-delay)`,
      ),
    ),
  ),
  timeout_ms: bounded(LIMITS.timeoutMs, "per-request timeout in ms"),
  check_resources: v.optional(
    v.pipe(v.boolean(), v.description("check images, scripts and stylesheets for breakage (default true)")),
  ),
  use_sitemaps: v.optional(
    v.pipe(
      v.boolean(),
      v.description("discover URLs from robots.txt Sitemap: lines and /sitemap.xml (default true)"),
    ),
  ),
};

export interface BoundsInput {
  max_pages?: number | undefined;
  max_depth?: number | undefined;
  max_seconds?: number | undefined;
  concurrency?: number | undefined;
  min_interval_ms?: number | undefined;
  timeout_ms?: number | undefined;
  check_resources?: boolean | undefined;
  use_sitemaps?: boolean | undefined;
}

/** Resolves validated input; the interval floor is lifted only for loopback targets. */
export function boundsFrom(input: BoundsInput, loopback: boolean): CrawlBounds {
  const maxPages = input.max_pages ?? LIMITS.maxPages.default;
  const floor = loopback ? 0 : LIMITS.minIntervalMs.min;
  return defaultBounds({
    maxPages,
    maxDepth: input.max_depth ?? LIMITS.maxDepth.default,
    maxSeconds: input.max_seconds ?? LIMITS.maxSeconds.default,
    concurrency: input.concurrency ?? LIMITS.concurrency.default,
    minIntervalMs: Math.max(floor, input.min_interval_ms ?? LIMITS.minIntervalMs.default),
    timeoutMs: input.timeout_ms ?? LIMITS.timeoutMs.default,
    maxResources: input.check_resources === false ? 0 : maxPages,
    sitemaps: input.use_sitemaps !== false,
  });
}
