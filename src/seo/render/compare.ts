/**
 * Raw against rendered HTML, as Screaming Frog's JavaScript tab compares them: what exists only
 * after scripts ran (title, description, canonical, robots, H1, links, words), what scripts
 * changed, and the two that change indexing: a noindex or canonical that differ between the two.
 * @module
 */
import type { HtmlFacts } from "../audit/html-facts.ts";
import type { CheckId } from "../audit/catalogue.ts";
import { clip, type Hit } from "../audit/finding.ts";
import { robotsDirectives } from "../audit/directives.ts";
import { normaliseUrl } from "../fetch/url.ts";

/** Words the rendered page must add (and half again the raw count) to be "content only in the rendered page". */
const RENDERED_WORDS_MIN = 50;

const first = (list: string[]) => (list[0] ?? "").trim();

function resolved(hrefs: string[], base: string): Set<string> {
  const out = new Set<string>();
  for (const href of hrefs) {
    const url = normaliseUrl(href, base);
    if (url !== undefined) out.add(url);
  }
  return out;
}

/** Elements present only after rendering, and those scripts changed. */
function elementHits(raw: HtmlFacts, rendered: HtmlFacts, hit: (id: CheckId, evidence: string) => void): void {
  const only: string[] = [];
  const changed: string[] = [];
  const pairs: [string, string, string][] = [
    ["title", first(raw.titles), first(rendered.titles)],
    ["meta description", first(raw.metaDescriptions), first(rendered.metaDescriptions)],
    ["h1", first(raw.h1), first(rendered.h1)],
  ];
  for (const [name, before, after] of pairs) {
    if (before === "" && after !== "") only.push(`${name} "${clip(after, 80)}"`);
    else if (before !== "" && after !== "" && before !== after) changed.push(`${name} "${clip(before, 80)}" → "${clip(after, 80)}"`);
  }
  if (raw.canonicals.length === 0 && rendered.canonicals.length > 0) only.push(`canonical ${clip(first(rendered.canonicals), 80)}`);
  if (raw.metaRobots.length === 0 && rendered.metaRobots.length > 0) only.push(`robots "${first(rendered.metaRobots)}"`);
  if (only.length > 0) hit("rendered-only-meta", `only after rendering: ${only.join("; ")}`);
  if (changed.length > 0) hit("rendered-changes-meta", `changed by script: ${changed.join("; ")}`);
}

function indexingHits(raw: HtmlFacts, rendered: HtmlFacts, base: string, hit: (id: CheckId, evidence: string) => void): void {
  const rawNoindex = robotsDirectives(raw.metaRobots).has("noindex");
  const renderedNoindex = robotsDirectives(rendered.metaRobots).has("noindex");
  if (rawNoindex && !renderedNoindex)
    hit("rendered-noindex-mismatch", "noindex in the raw HTML only: Google may skip rendering a page whose raw HTML says noindex, so the script's removal is never seen");
  else if (!rawNoindex && renderedNoindex) hit("rendered-noindex-mismatch", "noindex added by script: the raw HTML is indexable, the rendered page is not");
  const before = [...resolved(raw.canonicals, base)];
  const after = [...resolved(rendered.canonicals, base)];
  if (before.length > 0 && after.length > 0 && (after.length !== before.length || after.some((url) => !before.includes(url))))
    hit("rendered-canonical-mismatch", `raw canonical ${before.join(" , ")}; rendered ${after.join(" , ")}`);
}

function bodyHits(raw: HtmlFacts, rendered: HtmlFacts, base: string, hit: (id: CheckId, evidence: string) => void): void {
  const before = resolved(raw.links.map((l) => l.href), base);
  const added = [...resolved(rendered.links.map((l) => l.href), base)].filter((url) => !before.has(url));
  if (added.length > 0)
    hit("rendered-only-links", `${added.length} link(s) only after rendering (raw HTML: ${before.size}), e.g. ${clip(added[0] ?? "", 120)}`);
  const gained = rendered.wordCount - raw.wordCount;
  if (gained >= RENDERED_WORDS_MIN && rendered.wordCount >= raw.wordCount * 1.5)
    hit("rendered-only-content", `${raw.wordCount} words in the raw HTML, ${rendered.wordCount} after rendering`);
}

/** The findings of one page's raw and rendered HTML compared. */
export function renderedHits(url: string, raw: HtmlFacts, rendered: HtmlFacts, base: string): Hit[] {
  const hits: Hit[] = [];
  const hit = (id: CheckId, evidence: string) => hits.push({ id, url, evidence });
  elementHits(raw, rendered, hit);
  indexingHits(raw, rendered, base, hit);
  bodyHits(raw, rendered, base, hit);
  return hits;
}
