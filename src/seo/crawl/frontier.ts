/**
 * The crawl frontier: a record per URL the crawl will fetch or has fetched, and the queues it
 * draws from in priority order: links (breadth first), canonical/hreflang targets, sitemap
 * URLs, subresources. Records are admitted only while the page budget could still reach them;
 * every other URL found (beyond the budget or the depth bound) is only counted, as a hash in a
 * `SeenSet`, with its URL pattern, so an infinite site costs memory in proportion to the budget.
 * @module
 */
import { SeenSet } from "./seen-set.ts";

export type EntryState = "queued" | "done" | "blocked" | "skipped";
export type QueueName = "links" | "targets" | "sitemap" | "resources";
/** Why a URL found was not kept for fetching. */
type CutReason = "max_pages" | "max_depth";

export interface UrlEntry {
  url: string;
  kind: "page" | "resource";
  /** Clicks from the start URL (undefined: reached only from a sitemap or a canonical). */
  depth?: number;
  /** Crawled pages linking here. */
  inlinks: number;
  /** The first page found linking here. */
  referrer?: string;
  inSitemap: boolean;
  state: EntryState;
  /** Why it was not fetched, when it was not. */
  reason?: string;
  status?: number;
  error?: string;
  finalUrl?: string;
  hops?: number;
}

class Queue {
  #items: string[] = [];
  #head = 0;
  push(url: string): void {
    this.#items.push(url);
  }
  shift(): string | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const url = this.#items[this.#head++];
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return url;
  }
  get size(): number {
    return this.#items.length - this.#head;
  }
}

/**
 * Query values, id-like path segments and digit runs become `*`: /calendar?month=7 →
 * /calendar?month=*, /docs/api/api-238 → /docs/api/api-*.
 */
export function urlPattern(url: string): string {
  const q = url.indexOf("?");
  const origin = /^https?:\/\/[^/]*/.exec(url)?.[0] ?? "";
  const path = (q < 0 ? url : url.slice(0, q))
    .slice(origin.length)
    .replace(/\/([0-9a-f]{8,}|[0-9a-f-]{36})(?=\/|$|;)/gi, "/*")
    .replace(/\d+/g, "*");
  const base = origin + path;
  if (q < 0) return base.replace(/;jsessionid=[^/?]*/i, ";jsessionid=*");
  const keys = url
    .slice(q + 1)
    .split("&")
    .map((pair) => `${pair.split("=")[0]}=*`);
  return `${base}?${keys.join("&")}`;
}

const MAX_PATTERNS = 200;

export interface CutPattern {
  pattern: string;
  count: number;
  example: string;
}

export class Frontier {
  readonly entries = new Map<string, UrlEntry>();
  readonly #queues = { links: new Queue(), targets: new Queue(), resources: new Queue() };
  #sitemap: string[] = [];
  #sitemapAt = 0;
  #sitemapSet = new SeenSet(Number.POSITIVE_INFINITY);
  readonly #unkept: SeenSet;
  /** Distinct URLs found and not kept, by the reason they were first cut. */
  readonly cut: Record<CutReason, number> = { max_pages: 0, max_depth: 0 };
  /** URLs not even counted because the seen-set was full. */
  uncounted = 0;
  #promoted = 0;
  readonly #patterns = new Map<string, CutPattern>();

  constructor(seenCap: number) {
    this.#unkept = new SeenSet(seenCap);
  }

  /** Creates the record for a URL not known yet (the caller checked `entries` first). */
  create(url: string, kind: UrlEntry["kind"]): UrlEntry {
    // Every field from the start: one object shape for all records, its fields in the object itself.
    const entry: UrlEntry = {
      url,
      kind,
      depth: undefined,
      inlinks: 0,
      referrer: undefined,
      inSitemap: this.#sitemapSet.has(url),
      state: "queued",
      reason: undefined,
      status: undefined,
      error: undefined,
      finalUrl: undefined,
      hops: undefined,
    };
    // A URL linked earlier, when there was no room for it, was linked all the same.
    if (this.#unkept.size > 0 && this.#unkept.has(url)) {
      this.#promoted++;
      entry.inlinks = 1;
    }
    this.entries.set(url, entry);
    return entry;
  }

  /** Counts a URL that will not be fetched (once per URL), with its pattern. */
  unkeep(url: string, reason: CutReason): void {
    const added = this.#unkept.add(url);
    if (added === "full") this.uncounted++;
    if (added !== "added") return;
    this.cut[reason]++;
    const pattern = urlPattern(url);
    const known = this.#patterns.get(pattern);
    if (known) known.count++;
    else if (this.#patterns.size < MAX_PATTERNS) this.#patterns.set(pattern, { pattern, count: 1, example: url });
  }

  enqueue(entry: UrlEntry, queue: Exclude<QueueName, "sitemap">): void {
    this.#queues[queue].push(entry.url);
  }

  /** In-scope sitemap URLs: drawn from when links and targets run out; membership marks records. */
  setSitemap(urls: string[]): void {
    this.#sitemap = urls;
    for (const url of urls) this.#sitemapSet.add(url);
    for (const entry of this.entries.values()) if (this.#sitemapSet.has(entry.url)) entry.inSitemap = true;
  }

  /** The next queued entry of the first non-empty allowed queue. */
  next(allowed: (queue: QueueName) => boolean): UrlEntry | undefined {
    for (const name of ["links", "targets", "sitemap", "resources"] as const) {
      if (!allowed(name)) continue;
      const entry = name === "sitemap" ? this.#nextSitemap() : this.#nextOf(name);
      if (entry) return entry;
    }
    return undefined;
  }

  #nextOf(name: Exclude<QueueName, "sitemap">): UrlEntry | undefined {
    const queue = this.#queues[name];
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      const entry = this.entries.get(url);
      if (entry?.state === "queued") return entry;
    }
    return undefined;
  }

  #nextSitemap(): UrlEntry | undefined {
    while (this.#sitemapAt < this.#sitemap.length) {
      const url = this.#sitemap[this.#sitemapAt++] as string;
      if (!this.entries.has(url)) return this.create(url, "page");
    }
    return undefined;
  }

  /** Queued URLs of a queue (sitemap: listed URLs not drawn yet). */
  pending(name: QueueName): number {
    return name === "sitemap" ? this.#sitemap.length - this.#sitemapAt : this.#queues[name].size;
  }

  /** Distinct URLs found and never fetched (cut by the budget or the depth bound). */
  get notKept(): number {
    return this.#unkept.size - this.#promoted + this.uncounted;
  }

  /** The commonest patterns among URLs not fetched (cut, or still queued when the crawl stopped), most first. */
  patterns(limit: number): CutPattern[] {
    const all = new Map([...this.#patterns].map(([key, p]) => [key, { ...p }]));
    for (const entry of this.entries.values()) {
      if (entry.state !== "queued" || entry.kind !== "page") continue;
      const pattern = urlPattern(entry.url);
      const known = all.get(pattern);
      if (known) known.count++;
      else if (all.size < MAX_PATTERNS * 2) all.set(pattern, { pattern, count: 1, example: entry.url });
    }
    return [...all.values()].sort((a, b) => b.count - a.count).slice(0, limit);
  }

  /** The bounds a finished crawl hit, for the report (empty when it ran to completion). */
  truncation(outOfTime: boolean, cancelled: boolean): string[] {
    const reasons: string[] = [];
    let queuedPages = this.pending("sitemap");
    for (const entry of this.entries.values())
      if (entry.state === "queued" && entry.kind === "page") queuedPages++;
    if (cancelled) reasons.push("cancelled");
    // Pages come before subresources: a budget that ran out on resources only says so.
    else if (outOfTime) reasons.push(queuedPages > 0 ? "max_seconds" : "max_seconds_resources_unchecked");
    else if (queuedPages > 0 || this.cut.max_pages > 0) reasons.push("max_pages");
    if (this.cut.max_depth > 0) reasons.push("max_depth");
    if (this.uncounted > 0) reasons.push("frontier_full");
    return reasons;
  }
}
