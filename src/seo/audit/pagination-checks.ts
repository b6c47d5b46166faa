/**
 * Paginated series (`<link rel=next>` / `<link rel=prev>`), as Screaming Frog's pagination tab
 * judges them: a next that is not a live page naming this one back as its prev is a broken
 * sequence, and a later page canonicalised to the first hides the series' items from the
 * index (Google's pagination guide: give each page its own canonical).
 * @module
 */
import type { Hit } from "./finding.ts";
import type { PageFacts } from "./page-facts.ts";

export function paginationChecks(pages: PageFacts, local: (url: string) => string, add: (hit: Hit) => void): void {
  for (const s of pages.values()) {
    if (s.status !== 200 || !s.isHtml) continue;
    const target = s.prev && s.canonical ? pages.get(local(s.canonical)) : undefined;
    // The first page of a series: a next and no prev.
    if (target && target.url !== s.url && target.next && !target.prev)
      add({ id: "pagination-canonical-to-first", url: s.url, evidence: `page with rel=prev canonicalises to ${s.canonical}, the first page` });
    if (!s.next) continue;
    const next = pages.get(local(s.next));
    if (!next) continue;
    const why =
      next.status !== 200
        ? `answers ${next.status || next.error}`
        : next.prev === undefined
          ? "has no rel=prev"
          : local(next.prev) !== s.url
            ? `names ${next.prev} as its prev`
            : undefined;
    if (why) add({ id: "pagination-sequence-error", url: s.url, evidence: `next ${s.next} ${why}` });
  }
}
