/**
 * One run of external link checks (external-links.ts collects the targets and counts the
 * outcomes): HEAD first, GET (a few KB read, then dropped) when HEAD is refused or fails; each
 * host's robots.txt honoured and its requests spaced and limited by the crawl's polite client;
 * redirects followed up to the crawl's limit, each hop judged; a deadline for the whole run.
 * @module
 */
import { type CrawlBounds, REMOTE_LIMITS } from "../crawl/bounds.ts";
import { PoliteClient } from "../crawl/polite-client.ts";
import { type FetchPageOptions, fetchPage } from "../fetch/fetch-page.ts";
import type { CrawlDeps } from "../crawl/crawl-types.ts";
import { isOwnMachine } from "../fetch/url.ts";
import { mapBounded } from "../providers/types.ts";

/** The defaults and limits of the check: targets checked, seconds spent, requests per host at once. */
export const EXTERNAL_LINKS = { max: 100, cap: 1000, seconds: 60, perHost: 2, hosts: 4, getBytes: 4096, kept: 50_000 } as const;

export interface Target {
  url: string;
  pages: number;
  /** The first page that links to it. */
  source: string;
}

/** The outcome of one target. */
export type Outcome =
  | { kind: "ok" }
  | { kind: "broken"; why: string }
  | { kind: "redirect"; to: string }
  | { kind: "robots" | "time" | "private" };

export interface ExternalCheckOptions extends Pick<CrawlDeps, "fetch" | "request" | "userAgent" | "productToken" | "signal"> {
  bounds: CrawlBounds;
  /** Targets checked at most. */
  max: number;
  /** The audited site is on the user's own machine: private and loopback targets may be contacted. */
  ownMachine: boolean;
  /** Targets that are links to this site after all (its production twin's URLs): not checked, not counted. */
  isInternal?: (url: string) => boolean;
  /** The time bound in seconds (default: `EXTERNAL_LINKS.seconds`, or `max_seconds` if less). */
  seconds?: number;
}

/** Why a final answer is broken, or undefined when it is not. */
function brokenWhy(status: number, error: string | undefined): string | undefined {
  if (status === 0) return `no response (${error ?? "network error"})`;
  if (status >= 400) return `status ${status}`;
  if (status >= 300) return `status ${status} (${error ?? "redirect not followed"})`;
  return undefined;
}

/** One run of checks: a polite client (robots.txt, per-host gap), a deadline, per-host lanes. */
export class Checker {
  readonly #options: ExternalCheckOptions;
  readonly #client: PoliteClient;
  readonly #deadline = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #timeoutMs: number;
  readonly #stopOnAbort = () => this.#deadline.abort();

  constructor(options: ExternalCheckOptions) {
    this.#options = options;
    const seconds = options.seconds ?? Math.min(EXTERNAL_LINKS.seconds, options.bounds.maxSeconds);
    this.#timer = setTimeout(() => this.#deadline.abort(), seconds * 1000);
    options.signal?.addEventListener("abort", this.#stopOnAbort, { once: true });
    if (options.signal?.aborted) this.#deadline.abort();
    this.#timeoutMs = Math.min(options.bounds.timeoutMs, 10_000);
    this.#client = new PoliteClient({
      ...options,
      bounds: { ...options.bounds, timeoutMs: this.#timeoutMs },
      signal: this.#deadline.signal,
      politenessOff: false,
      inScope: () => false,
    });
  }

  get requests(): number {
    return this.#client.requests;
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#options.signal?.removeEventListener("abort", this.#stopOnAbort);
  }

  /** Checks `targets`, a few hosts at a time and a few requests per host. */
  async run(targets: Target[], done: (target: Target, outcome: Outcome) => void): Promise<void> {
    const byHost = new Map<string, Target[]>();
    for (const t of targets) {
      const origin = new URL(t.url).origin;
      byHost.set(origin, [...(byHost.get(origin) ?? []), t]);
    }
    await mapBounded([...byHost.values()], EXTERNAL_LINKS.hosts, (queue) =>
      mapBounded(queue, EXTERNAL_LINKS.perHost, async (t) => done(t, await this.#outcome(t.url))),
    );
  }

  /** Why `url` may not be contacted: a private address in a remote audit, or robots.txt. */
  async #refusal(url: URL): Promise<Outcome | undefined> {
    if (!this.#options.ownMachine && isOwnMachine(url)) return { kind: "private" };
    if (!isOwnMachine(url)) this.#client.gate.raiseInterval(url.origin, REMOTE_LIMITS.minIntervalMs);
    const robots = await this.#client.robotsFor(url.origin);
    if (this.#deadline.signal.aborted) return { kind: "time" };
    // An unreachable host answers no robots.txt either: that is the link's failure, not a rule.
    if (robots.outcome === "disallow-all" && robots.status === 0)
      return { kind: "broken", why: `no response (${robots.error ?? "network error"})` };
    if (!robots.robots.isAllowed(`${url.pathname}${url.search}`)) return { kind: "robots" };
    return undefined;
  }

  async #outcome(link: string): Promise<Outcome> {
    if (this.#deadline.signal.aborted) return { kind: "time" };
    const first = await this.#refusal(new URL(link));
    if (first) return first;
    let refused: Outcome | undefined;
    const beforeHop = async (hop: URL) => {
      refused = await this.#refusal(hop);
      if (refused) return "refused";
      await this.#client.gate.take(hop.origin, this.#deadline.signal);
      return undefined;
    };
    const head = await this.#head(link, beforeHop);
    const answer =
      head.status === 405 || head.status === 501 || (head.status === 0 && !refused && head.error !== "timeout")
        ? await this.#get(link, beforeHop)
        : head;
    if (this.#deadline.signal.aborted && answer.status === 0) return { kind: "time" };
    if (refused && refused.kind !== "broken") return refused;
    const why = refused?.kind === "broken" ? refused.why : brokenWhy(answer.status, answer.error);
    if (why) return { kind: "broken", why: answer.hops > 0 ? `${why} at ${answer.finalUrl}` : why };
    return answer.hops > 0 ? { kind: "redirect", to: answer.finalUrl } : { kind: "ok" };
  }

  /** A HEAD request, its redirects followed and vetted as a GET's are. */
  #head(link: string, beforeHop: (hop: URL) => Promise<string | undefined>): Promise<Answer> {
    const head: typeof fetch = (url, init) => this.#options.fetch(url, { ...init, method: "HEAD" });
    return this.#send(link, beforeHop, { fetch: head, maxBytes: 0 });
  }

  /** A GET that reads a few KB and drops the rest, for servers that refuse or fail HEAD. */
  #get(link: string, beforeHop: (hop: URL) => Promise<string | undefined>): Promise<Answer> {
    const { fetch, request } = this.#options;
    const maxBytes = EXTERNAL_LINKS.getBytes;
    return this.#send(link, beforeHop, { fetch, ...(request ? { request } : {}), maxBytes });
  }

  async #send(
    link: string,
    beforeHop: (hop: URL) => Promise<string | undefined>,
    how: Pick<FetchPageOptions, "fetch" | "request" | "maxBytes">,
  ): Promise<Answer> {
    await this.#client.gate.take(new URL(link).origin, this.#deadline.signal);
    const page = await fetchPage(link, {
      ...how,
      signal: this.#deadline.signal,
      timeoutMs: this.#timeoutMs,
      userAgent: this.#options.userAgent,
      maxRedirects: this.#options.bounds.maxRedirects,
      beforeHop,
    });
    this.#client.requests += 1 + page.redirects.length;
    return {
      status: page.status,
      ...(page.error ? { error: page.error } : {}),
      hops: page.redirects.length,
      finalUrl: page.finalUrl,
    };
  }
}

interface Answer {
  status: number;
  error?: string;
  hops: number;
  finalUrl: string;
}
