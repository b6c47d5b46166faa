/**
 * The crawl's visitor in rendering mode: each HTML page answering 200 is also loaded in the
 * browser; the page checks read the rendered HTML (what browsers and Google see), the raw and
 * rendered HTML are compared, and links from both are followed. Every request the page makes
 * goes through the crawl's gate (same site, robots.txt, per-host gap).
 * @module
 */
import type { PageVisit, Visitor } from "../crawl/crawl-types.ts";
import type { Collector } from "../audit/collector.ts";
import { extractHtml, type FactsSink, isFactsSink } from "../audit/extract.ts";
import type { HtmlFacts } from "../audit/html-facts.ts";
import { linksOf } from "../audit/page.ts";
import type { FetchedPage } from "../fetch/fetch-page.ts";
import { normaliseUrl } from "../fetch/url.ts";
import { renderedHits } from "./compare.ts";
import type { RenderedPage, Renderer } from "./renderer.ts";
import { messageOf } from "../../shared/errors.ts";

/** What the rendering did over a crawl, for the report. */
export interface RenderStats {
  pages: number;
  failed: number;
  requests: number;
  blocked: number;
  /** A few blocked requests with their reasons. */
  blockedExamples: { url: string; reason: string }[];
}

const renderable = (page: FetchedPage) =>
  page.status === 200 && page.error === undefined && /html/i.test(page.headers.get("content-type") ?? "text/html");

/** A sink that already holds its facts: the rendered page, handed to the page checks. */
function factsSink(facts: HtmlFacts): FactsSink {
  return { facts, write() {}, end() {} };
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

export function renderingVisitor(collector: Collector, renderer: Renderer, timeoutMs: number, stats: RenderStats): Visitor {
  return async (page, entry, analyseAs, gate): Promise<PageVisit> => {
    if (!analyseAs || !renderable(page) || !gate) return collector.visit(page, entry, analyseAs);
    const raw = isFactsSink(page.sink) ? page.sink.facts : extractHtml(page.body);
    // A browser that died fails its pages, not the crawl: they are audited from their raw HTML.
    const rendered = await renderer
      .render(page.finalUrl, { gate, timeoutMs })
      .catch((err: unknown): RenderedPage => ({ html: "", error: `the browser failed: ${messageOf(err)}`, requests: 0, blocked: [], blockedCount: 0 }));
    stats.requests += rendered.requests;
    stats.blocked += rendered.blockedCount;
    for (const blocked of rendered.blocked) if (stats.blockedExamples.length < 10) stats.blockedExamples.push(blocked);
    if (rendered.error !== undefined) {
      stats.failed++;
      collector.add({ id: "render-failed", url: analyseAs, evidence: rendered.error });
      return collector.visit(page, entry, analyseAs);
    }
    stats.pages++;
    const facts = extractHtml(rendered.html);
    const base = normaliseUrl(facts.base ?? page.finalUrl, page.finalUrl) ?? page.finalUrl;
    for (const hit of renderedHits(analyseAs, raw, facts, base)) collector.add(hit);
    const visit = collector.visit({ ...page, sink: factsSink(facts) }, entry, analyseAs);
    return { ...visit, links: union(visit.links, linksOf(raw, base)) };
  };
}

