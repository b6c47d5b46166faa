/**
 * External links, checked after the crawl on a bounded, polite budget: the distinct http(s)
 * targets on other hosts that crawled pages link to, most-linked first, up to a cap and a time
 * bound. HEAD first, GET (a few KB read, then dropped) when HEAD is refused or fails; each
 * host's robots.txt honoured and its requests spaced and limited, as the crawl does; redirects
 * followed up to the crawl's limit. A remote audit never contacts hosts on the user's own
 * machine or network. Broken targets become `external-link-broken`, redirects
 * `external-link-redirect`; what was not checked is counted, not reported. This module collects
 * the targets and counts the outcomes; external-checker.ts makes the requests.
 * @module
 */
import type { PageVisit, Visitor } from "../crawl/crawler.ts";
import { sitePrefixes } from "../fetch/url.ts";
import { Checker, EXTERNAL_LINKS, type ExternalCheckOptions, type Outcome, type Target } from "./external-checker.ts";
import type { Hit } from "./finding.ts";

/** What the report says of the check. */
export interface ExternalLinksSummary {
  /** Distinct external targets linked from crawled pages. */
  found: number;
  checked: number;
  broken: number;
  redirected: number;
  /** Targets not checked, by reason: over the cap, disallowed by robots.txt, out of time, a private address in a remote audit. */
  not_checked: { cap: number; robots: number; time: number; private: number };
  requests: number;
}

const WEB = /^https?:\/\/[^/]/;

/** The external targets of crawled pages, with the pages linking to each (memory bounded by `kept`). */
export class ExternalLinks {
  /** The audited site's origins as prefixes of normalised URLs: a cheap test for every link of every page. */
  readonly #site: string[];
  readonly #targets = new Map<string, Target>();
  constructor(start: string) {
    this.#site = sitePrefixes(new URL(start));
  }

  /** Records one page's links (normalised absolute URLs, as the page analysis gives them). */
  record(page: string, links: readonly string[]): void {
    for (const link of new Set(links)) {
      if (!WEB.test(link) || this.#site.some((prefix) => link.startsWith(prefix))) continue;
      const known = this.#targets.get(link);
      if (known) known.pages++;
      else if (this.#targets.size < EXTERNAL_LINKS.kept) this.#targets.set(link, { url: link, pages: 1, source: page });
    }
  }

  /** `visit`, recording the links of every page it analyses. */
  wrap(visit: Visitor): Visitor {
    return async (page, entry, analyseAs, gate) => {
      const visited: PageVisit = await visit(page, entry, analyseAs, gate);
      if (analyseAs) this.record(analyseAs, visited.links);
      return visited;
    };
  }

  /** Checks the most-linked targets; the hits go to `add`. */
  async check(options: ExternalCheckOptions, add: (hit: Hit) => void): Promise<ExternalLinksSummary> {
    const internal = options.isInternal;
    const ranked = [...this.#targets.values()]
      .filter((t) => !internal?.(t.url))
      .sort((a, b) => b.pages - a.pages);
    const chosen = ranked.slice(0, options.max);
    const summary: ExternalLinksSummary = {
      found: ranked.length,
      checked: 0,
      broken: 0,
      redirected: 0,
      not_checked: { cap: ranked.length - chosen.length, robots: 0, time: 0, private: 0 },
      requests: 0,
    };
    const checker = new Checker(options);
    try {
      await checker.run(chosen, (target, outcome) => tally(summary, target, outcome, add));
    } finally {
      checker.close();
    }
    summary.requests = checker.requests;
    return summary;
  }
}

const linkedFrom = (t: Target) => `linked from ${t.source}${t.pages > 1 ? ` (+${t.pages - 1} more)` : ""}`;

function tally(summary: ExternalLinksSummary, target: Target, outcome: Outcome, add: (hit: Hit) => void): void {
  if (outcome.kind === "robots" || outcome.kind === "time" || outcome.kind === "private") {
    summary.not_checked[outcome.kind]++;
    return;
  }
  summary.checked++;
  if (outcome.kind === "broken") {
    summary.broken++;
    add({ id: "external-link-broken", url: target.url, evidence: `${outcome.why}; ${linkedFrom(target)}` });
  } else if (outcome.kind === "redirect") {
    summary.redirected++;
    add({ id: "external-link-redirect", url: target.url, evidence: `redirects to ${outcome.to}; ${linkedFrom(target)}` });
  }
}

