/**
 * The crawl frontier: every URL the crawl knows (bounded), and the queues it draws from in
 * priority order: links (breadth first), canonical/hreflang targets, sitemap URLs, subresources.
 * @module
 */

export type EntryState = "queued" | "done" | "blocked" | "skipped" | "unqueued";
export type QueueName = "links" | "targets" | "sitemap" | "resources";

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

export class Frontier {
  readonly entries = new Map<string, UrlEntry>();
  readonly #queues: Record<QueueName, Queue> = {
    links: new Queue(),
    targets: new Queue(),
    sitemap: new Queue(),
    resources: new Queue(),
  };
  readonly #cap: number;
  /** URLs not remembered because the frontier was full. */
  dropped = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  /** Finds or creates the entry for `url`; undefined when the frontier is full. */
  entry(url: string, kind: UrlEntry["kind"]): UrlEntry | undefined {
    const known = this.entries.get(url);
    if (known) return known;
    if (this.entries.size >= this.#cap) {
      this.dropped++;
      return undefined;
    }
    const created: UrlEntry = { url, kind, inlinks: 0, inSitemap: false, state: "unqueued" };
    this.entries.set(url, created);
    return created;
  }

  enqueue(entry: UrlEntry, queue: QueueName): void {
    if (entry.state !== "unqueued") return;
    entry.state = "queued";
    this.#queues[queue].push(entry.url);
  }

  /** The next queued entry of the first non-empty allowed queue. */
  next(allowed: (queue: QueueName) => boolean): UrlEntry | undefined {
    for (const name of ["links", "targets", "sitemap", "resources"] as const) {
      if (!allowed(name)) continue;
      const queue = this.#queues[name];
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
        const entry = this.entries.get(url);
        if (entry?.state === "queued") return entry;
      }
    }
    return undefined;
  }

  pending(name: QueueName): number {
    return this.#queues[name].size;
  }

  /** The bounds a finished crawl hit, for the report (empty when it ran to completion). */
  truncation(outOfTime: boolean, cancelled: boolean): string[] {
    const reasons: string[] = [];
    let queuedPages = 0;
    let deep = 0;
    for (const entry of this.entries.values()) {
      if (entry.state === "queued" && entry.kind === "page") queuedPages++;
      if (entry.reason === "max_depth") deep++;
    }
    if (cancelled) reasons.push("cancelled");
    // Pages come before subresources: a budget that ran out on resources only says so.
    else if (outOfTime) reasons.push(queuedPages > 0 ? "max_seconds" : "max_seconds_resources_unchecked");
    else if (queuedPages > 0) reasons.push("max_pages");
    if (deep > 0) reasons.push("max_depth");
    if (this.dropped > 0) reasons.push("frontier_full");
    return reasons;
  }
}
