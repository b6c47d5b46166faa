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
import { nearDuplicateGroups, SimHashList } from "./simhash.ts";
import { variantOf } from "./url-checks.ts";
import { KeySet } from "./key-set.ts";
import type { PageFacts } from "./page-facts.ts";

type Add = (hit: Hit) => void;

/** What the exact-duplicate check keeps of a page whose document hash another page may share. */
type Slim = Pick<PageSummary, "url" | "documentHash">;
type Judged = (s: PageSummary) => boolean;

function groupBy<T, K>(pages: T[], key: (s: T) => K | undefined): Map<K, T[]> {
  const groups = new Map<K, T[]>();
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

/** The 30 low bits of a number: a small integer V8 keeps unboxed; equal keys only make a page a candidate. */
const low30 = (n: number) => n & 0x3fffffff;

/**
 * The values `key` gives two or more judged pages (as 30-bit keys): a first pass that keeps
 * numbers, so the next keeps only the pages that may share something, not every page.
 */
function repeatedKeys(pages: PageFacts, judged: Judged, key: (s: PageSummary) => number | undefined): KeySet {
  const seen = new KeySet();
  const repeated = new KeySet();
  for (const s of pages.values()) {
    const k = judged(s) ? key(s) : undefined;
    if (k !== undefined && !seen.add(k)) repeated.add(k);
  }
  return repeated;
}

/** The judged pages whose whole document may equal another's, in crawl order. */
function exactCandidates(pages: PageFacts, judged: Judged): Slim[] {
  const docKey = (s: PageSummary) => (s.documentHash === undefined ? undefined : low30(s.documentHash));
  const repeated = repeatedKeys(pages, judged, docKey);
  const candidates: Slim[] = [];
  for (const s of pages.values()) {
    const k = repeated.size > 0 && judged(s) ? docKey(s) : undefined;
    if (k !== undefined && repeated.has(k)) candidates.push({ url: s.url, documentHash: s.documentHash });
  }
  return candidates;
}

/** Exact-duplicate groups, as URL-variant hits when the URLs differ only in form. Returns the URLs reported. */
function exactDuplicates(pages: PageFacts, judged: Judged, add: Add): Set<string> {
  const reported = new Set<string>();
  for (const group of groupBy(exactCandidates(pages, judged), (s) => s.documentHash).values()) {
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

const SHARED_TEXTS = [
  ["title-duplicate", (s: PageSummary) => s.title],
  ["meta-description-duplicate", (s: PageSummary) => s.description],
  ["h1-duplicate", (s: PageSummary) => s.h1],
] as const;

const textKey = (text: string | undefined) => text?.trim().toLowerCase() || undefined;

/** A 30-bit hash of a text: small integers V8 keeps unboxed; equal hashes only make a text a candidate. */
function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

/**
 * Per check, the hashes of texts seen on two or more pages: a first pass that keeps numbers,
 * so the second keeps only the texts (and URLs) that may be shared, not every page's.
 */
function repeatedHashes(pages: PageFacts, judged: Judged): KeySet[] {
  const seen = SHARED_TEXTS.map(() => new KeySet());
  const repeated = SHARED_TEXTS.map(() => new KeySet());
  for (const s of pages.values()) {
    if (!judged(s)) continue;
    SHARED_TEXTS.forEach(([, text], i) => {
      const key = textKey(text(s));
      if (key !== undefined && !(seen[i] as KeySet).add(textHash(key))) (repeated[i] as KeySet).add(textHash(key));
    });
  }
  return repeated;
}

/** Titles, descriptions and H1s shared by pages that `judged` admits, in two passes over `pages`. */
function sharedTexts(pages: PageFacts, judged: Judged, add: Add): void {
  const repeated = repeatedHashes(pages, judged);
  const groups = SHARED_TEXTS.map(() => new Map<string, string[]>());
  for (const s of pages.values()) {
    if (!judged(s)) continue;
    SHARED_TEXTS.forEach(([, text], i) => {
      const key = textKey(text(s));
      if (key === undefined || !(repeated[i] as KeySet).has(textHash(key))) return;
      const byKey = groups[i] as Map<string, string[]>;
      const group = byKey.get(key);
      if (group) group.push(s.url);
      else byKey.set(key, [s.url]);
    });
  }
  SHARED_TEXTS.forEach(([id], i) => {
    for (const [key, group] of groups[i] as Map<string, string[]>) {
      if (group.length < 2) continue;
      for (const url of group) add({ id, url, evidence: `shared by ${group.length} pages: "${key.slice(0, 80)}"` });
    }
  });
}

/**
 * Near-duplicate groups among the judged pages, found on their SimHashes with each page known by
 * its place in the crawl order; only the URLs of pages in a group are read back.
 */
function nearDuplicates(pages: PageFacts, judged: Judged, add: Add): void {
  const hashed = new SimHashList();
  for (const s of pages.values()) if (judged(s) && s.simhash) hashed.push(s.simhash);
  const groups = nearDuplicateGroups(hashed);
  if (groups.length === 0) return;
  const wanted = new Set(groups.flat());
  const urls = new Map<number, string>();
  let at = 0;
  for (const s of pages.values()) if (judged(s) && s.simhash && wanted.has(at++)) urls.set(at - 1, s.url);
  for (const group of groups) {
    const named = group.map((i) => urls.get(i) as string);
    for (const url of named) {
      const other = named.find((u) => u !== url);
      add({ id: "near-duplicate-content", url, evidence: `near-duplicate of ${other}${more(named.length - 2)}` });
    }
  }
}

/** The duplicate checks over every crawled page, judged among the indexable ones (read through `local`). */
export function duplicateChecks(pages: PageFacts, local: (url: string) => string, add: Add): void {
  const indexable: Judged = (s) => isIndexable(s, local);
  const exact = exactDuplicates(pages, indexable, add);
  const rest: Judged = (s) => indexable(s) && !exact.has(s.url);
  sharedTexts(pages, rest, add);
  nearDuplicates(pages, rest, add);
}
