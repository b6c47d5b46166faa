/**
 * Small judgements several checks share: which pages are meant to rank, and how an entry's
 * outcome reads in evidence.
 * @module
 */
import type { UrlEntry } from "../crawl/frontier.ts";
import { normaliseUrl } from "../fetch/url.ts";
import type { PageSummary } from "./page-summary.ts";

export const statusText = (e: UrlEntry): string => (e.status ? `status ${e.status}` : (e.error ?? "no response"));

/** 200 HTML, not noindex, not a redirect stub, canonical to itself (or none): the pages meant to rank. */
export function isIndexable(s: PageSummary, local: (url: string) => string = (url) => url): boolean {
  return (
    s.status === 200 &&
    s.isHtml &&
    !s.noindex &&
    !s.clientRedirect &&
    (s.canonical === undefined || local(s.canonical) === normaliseUrl(s.finalUrl))
  );
}
