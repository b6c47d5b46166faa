/**
 * robots.txt per origin, fetched once per audit (RFC 9309 §2.4 allows a day's caching):
 * 2xx is parsed (first 500 KiB), 4xx means allow all, 5xx, 429 and network failure mean
 * disallow all, and up to 5 redirects are followed.
 * @module
 */
import type { FetchedPage } from "../fetch/fetch-page.ts";
import { allowAll, disallowAll, parseRobots, ROBOTS_PARSE_LIMIT, type Robots } from "./robots.ts";

export type RobotsOutcome = "parsed" | "allow-all" | "disallow-all";

export interface RobotsInfo {
  url: string;
  status: number;
  outcome: RobotsOutcome;
  /** Why the outcome, in words (for the report). */
  reason: string;
  crawlDelaySeconds?: number;
  sitemaps: string[];
  robots: Robots;
  /** A 2xx answer that is an HTML page (a dev server's catch-all route), not a robots file. */
  html?: boolean;
  /** Why no answer came (status 0): the network error, in the fetch's words. */
  error?: string;
}

const looksLikeHtml = (page: FetchedPage) =>
  /html/i.test(page.headers.get("content-type") ?? "") ||
  /^\s*<(!doctype|html|head|body)\b/i.test(page.body.replace(/^\ufeff/, ""));

interface RobotsCacheOptions {
  productToken: string;
  /** Fetches one URL politely (host gate, timeout, user agent) with the given redirect and byte limits. */
  get(url: string, limits: { maxRedirects: number; maxBytes: number }): Promise<FetchedPage>;
}

export function robotsInfoOf(url: string, page: FetchedPage, productToken: string): RobotsInfo {
  const status = page.status;
  if (status >= 200 && status < 300) {
    const robots = parseRobots(page.body, productToken);
    return {
      url,
      status,
      outcome: "parsed",
      reason: `status ${status}: rules parsed${page.truncated ? " (first 500 KiB)" : ""}`,
      ...(robots.crawlDelay !== undefined ? { crawlDelaySeconds: robots.crawlDelay } : {}),
      sitemaps: robots.sitemaps,
      robots,
      ...(looksLikeHtml(page) ? { html: true } : {}),
    };
  }
  // RFC 9309 §2.3.1.2: past the redirect limit the file MAY be treated as unavailable, as a 4xx is.
  const unavailable =
    status >= 300 && status < 400
      ? `more than 5 redirects (${page.error ?? "stopped"}): treated as unavailable`
      : status >= 400 && status < 500 && status !== 429
        ? `status ${status}: unavailable, so everything is allowed (RFC 9309 §2.3.1.3)`
        : undefined;
  if (unavailable !== undefined)
    return { url, status, outcome: "allow-all", reason: unavailable, sitemaps: [], robots: allowAll };
  const why = status === 0 ? `unreachable (${page.error ?? "network error"})` : `status ${status}`;
  return {
    url,
    status,
    outcome: "disallow-all",
    reason: `${why}: everything is disallowed (RFC 9309 §2.3.1.4)`,
    sitemaps: [],
    robots: disallowAll,
    ...(status === 0 ? { error: page.error ?? "network error" } : {}),
  };
}

export class RobotsCache {
  readonly #byOrigin = new Map<string, Promise<RobotsInfo>>();
  readonly #options: RobotsCacheOptions;

  constructor(options: RobotsCacheOptions) {
    this.#options = options;
  }

  info(origin: string): Promise<RobotsInfo> {
    let pending = this.#byOrigin.get(origin);
    if (!pending) {
      const url = `${origin}/robots.txt`;
      pending = this.#options
        .get(url, { maxRedirects: 5, maxBytes: ROBOTS_PARSE_LIMIT })
        .then((page) => robotsInfoOf(url, page, this.#options.productToken));
      this.#byOrigin.set(origin, pending);
    }
    return pending;
  }

  /** Every origin's outcome, for the report. */
  async all(): Promise<RobotsInfo[]> {
    return Promise.all(this.#byOrigin.values());
  }
}
