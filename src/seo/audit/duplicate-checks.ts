/**
 * Duplicates among the pages meant to rank, each problem reported once under its root cause:
 * one page served at URL variants (`/x/` and `/x/index.html`, case, trailing slash,
 * parameters), then other exact duplicates (the same HTML: Screaming Frog's exact duplicates
 * hash the whole document), then near-duplicates (SimHash within `NEAR_DUPLICATE_BITS`),
 * shared titles, descriptions and H1s. A URL in an exact-duplicate group is not reported again
 * as a near-duplicate or for its copied title, description or H1: the copy is the fix.
 * @module
 */
import type { Hit } from "./finding.ts";
import { isIndexable, type PageSummary } from "./page-summary.ts";
import { nearDuplicateGroups } from "./simhash.ts";
import { variantOf } from "./url-checks.ts";

type Add = (hit: Hit) => void;

function groupBy<K>(pages: PageSummary[], key: (s: PageSummary) => K | undefined): Map<K, PageSummary[]> {
  const groups = new Map<K, PageSummary[]>();
  for (const s of pages) {
    const k = key(s);
    if (k === undefined) continue;
    const group = groups.get(k);
    if (group) group.push(s);
    else groups.set(k, [s]);
  }
  return groups;
}

const more = (n: number) => (n > 0 ? ` (+${n} more)` : "");

/** Exact-duplicate groups, as URL-variant hits when the URLs differ only in form. Returns the URLs reported. */
function exactDuplicates(indexable: PageSummary[], add: Add): Set<string> {
  const reported = new Set<string>();
  for (const group of groupBy(indexable, (s) => s.documentHash).values()) {
    if (group.length < 2) continue;
    const variants = groupBy(group, (s) => variantOf(s.url).key);
    for (const same of variants.values()) {
      if (same.length < 2) continue;
      // What tells the variants apart: what some of them have and the others do not.
      const hows = same.map((s) => variantOf(s.url).how);
      const how = [...new Set(hows.flat())].filter((h) => !hows.every((list) => list.includes(h))).join(", ");
      for (const s of same) {
        const other = same.find((o) => o !== s)?.url;
        add({ id: "duplicate-url-variant", url: s.url, evidence: `same page as ${other}${more(same.length - 2)}: URL variants by ${how}` });
        reported.add(s.url);
      }
    }
    const rest = group.filter((s) => !reported.has(s.url));
    if (rest.length < 2) continue;
    for (const s of rest) {
      const other = rest.find((o) => o !== s)?.url;
      add({ id: "duplicate-content-exact", url: s.url, evidence: `same HTML as ${other}${more(rest.length - 2)}` });
      reported.add(s.url);
    }
  }
  return reported;
}

function sharedTexts(pages: PageSummary[], add: Add): void {
  const checks = [
    ["title-duplicate", (s: PageSummary) => s.title],
    ["meta-description-duplicate", (s: PageSummary) => s.description],
    ["h1-duplicate", (s: PageSummary) => s.h1],
  ] as const;
  for (const [id, text] of checks) {
    for (const [key, group] of groupBy(pages, (s) => text(s)?.trim().toLowerCase() || undefined)) {
      if (group.length < 2) continue;
      for (const s of group) add({ id, url: s.url, evidence: `shared by ${group.length} pages: "${key.slice(0, 80)}"` });
    }
  }
}

/** The duplicate checks over every crawled page, judged among the indexable ones (read through `local`). */
export function duplicateChecks(pages: Map<string, PageSummary>, local: (url: string) => string, add: Add): void {
  const indexable = [...pages.values()].filter((s) => isIndexable(s, local));
  const exact = exactDuplicates(indexable, add);
  const rest = exact.size === 0 ? indexable : indexable.filter((s) => !exact.has(s.url));
  sharedTexts(rest, add);
  const hashed = rest.flatMap((s) => (s.simhash ? [{ hash: s.simhash, item: s.url }] : []));
  for (const group of nearDuplicateGroups(hashed)) {
    for (const url of group) {
      const other = group.find((u) => u !== url);
      add({ id: "near-duplicate-content", url, evidence: `near-duplicate of ${other}${more(group.length - 2)}` });
    }
  }
}
