/**
 * What the crawl remembers of each page for the site-level checks, the cuts and the page
 * table, once the page itself is gone, and the judgement several checks make of it: whether
 * the page is meant to rank.
 * @module
 */
import { normaliseUrl } from "../fetch/url.ts";

/**
 * What the page is for the content checks: a client-side redirect stub, a hub (its content is
 * mostly links: indexes, categories), a reference page (code or tables carry its content), or
 * an article.
 */
export type PageType = "redirect" | "hub" | "reference" | "article";

/** A redirect done by the page instead of the server. */
export interface ClientRedirect {
  kind: "meta refresh" | "script";
  /** Resolved absolute URL. */
  target: string;
}

/** What the site-level checks need to remember of a page. */
export interface PageSummary {
  url: string;
  finalUrl: string;
  status: number;
  redirectHops: number;
  error?: string;
  isHtml: boolean;
  noindex: boolean;
  /** Resolved canonical target when there is exactly one. */
  canonical?: string;
  title?: string;
  description?: string;
  simhash?: [number, number];
  /** Hash of the whole document (exact duplicates). */
  documentHash?: number;
  /** The first H1's text. */
  h1?: string;
  /** rel=next / rel=prev targets, resolved, on pages of a paginated series. */
  next?: string;
  prev?: string;
  hreflang: { lang: string; url: string }[];
  /** Words of main content (0 when not HTML). */
  words: number;
  pageType?: PageType;
  clientRedirect?: ClientRedirect;
  /** Crawlable links on the page when there were more than the crawl follows per page. */
  linksFound?: number;
}

/** 200 HTML, not noindex, not a redirect stub, canonical to itself (or none): the pages meant to rank. */
export function isIndexable(s: PageSummary, local: (url: string) => string = (url) => url): boolean {
  return (
    s.status === 200 &&
    s.isHtml &&
    !s.noindex &&
    !s.clientRedirect &&
    (s.canonical === undefined || local(s.canonical) === normaliseUrl(s.finalUrl, s.finalUrl))
  );
}
