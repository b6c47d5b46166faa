/**
 * Facts read from single elements' attributes or text: `<meta>`, `<link>`, a JSON-LD block.
 * @module
 */
import { type HtmlFacts, type JsonLdItem, LIMIT } from "./html-facts.ts";
import { richResultGaps } from "./structured-data.ts";
import { messageOf } from "../../shared/errors.ts";

/** The page line of a syntax error `JSON.parse` places "at position N" of a block starting on `line`. */
function errorLine(message: string, text: string, line: number): number {
  const at = /at position (\d+)/.exec(message);
  const end = at ? Number(at[1]) : text.length;
  let lines = line;
  for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

/** A JSON-LD block's types, syntax error (with its page line) and rich-result gaps; `line` is where its text starts. */
export function jsonLdItem(text: string, line = 1): JsonLdItem {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    const message = messageOf(err);
    // The position is within the block; the line says where in the page.
    const error = message.replace(/\s*at position \d+.*$/s, "");
    return { types: [], error, line: errorLine(message, text, line) };
  }
  const nodes = (Array.isArray(data) ? data : [data]).flatMap((node) =>
    node && typeof node === "object" && Array.isArray((node as Record<string, unknown>)["@graph"])
      ? ((node as Record<string, unknown>)["@graph"] as unknown[])
      : [node],
  );
  const typesOf = (node: unknown): string[] => {
    const type = node && typeof node === "object" ? (node as Record<string, unknown>)["@type"] : undefined;
    if (typeof type === "string") return [type];
    return Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
  };
  const perNode = nodes.map(typesOf);
  const types = perNode.flat();
  const gaps = richResultGaps(data);
  const item: JsonLdItem = { types, line };
  if (!perNode.every((t) => t.length > 0)) item.error = "an item has no @type";
  if (gaps.required.length > 0) item.missing = gaps.required;
  if (gaps.recommended.length > 0) item.recommended = gaps.recommended;
  return item;
}

/** `0; url=/new`, `5;URL='/new'`, `0` (a reload). */
function parseRefresh(content: string): HtmlFacts["metaRefresh"] {
  const found = /^\s*(\d+(?:\.\d*)?)\s*(?:[;,]\s*(?:url\s*=\s*)?(.*))?$/is.exec(content);
  if (!found) return undefined;
  const url = (found[2] ?? "").trim().replace(/^(["'])(.*)\1$/s, "$2").trim();
  return { seconds: Number(found[1]), url: url === "" ? undefined : url };
}

export function readMeta(facts: HtmlFacts, attrs: Record<string, string>): void {
  const key = (attrs.name ?? attrs.property ?? "").trim().toLowerCase();
  const content = attrs.content ?? "";
  if ((attrs["http-equiv"] ?? "").trim().toLowerCase() === "refresh") facts.metaRefresh ??= parseRefresh(content);
  if (key === "description") facts.metaDescriptions.push(content.trim());
  else if (key === "robots" || key === "googlebot") facts.metaRobots.push(content.toLowerCase());
  else if (key === "viewport") facts.viewport = content;
  else if (key.startsWith("og:")) facts.openGraph[key] ??= content;
  else if (key.startsWith("twitter:")) facts.twitter[key] ??= content;
}

/** A `<link>`; `inBody` once the `<body>` has opened (a canonical there is ignored by search engines). */
export function readLink(facts: HtmlFacts, attrs: Record<string, string>, inBody = false): void {
  const rel = ` ${(attrs.rel ?? "").toLowerCase().replace(/\s+/g, " ")} `;
  const href = attrs.href;
  if (href === undefined) return;
  if (rel.includes(" canonical ")) {
    facts.canonicals.push(href);
    if (inBody) facts.canonicalsInBody++;
  }
  if (rel.includes(" next ")) facts.relNext ??= href;
  if (rel.includes(" prev ") || rel.includes(" previous ")) facts.relPrev ??= href;
  if (rel.includes(" alternate ") && attrs.hreflang !== undefined) facts.hreflang.push({ lang: attrs.hreflang, href });
  if (rel.includes(" stylesheet ") && facts.resources.length < LIMIT) facts.resources.push(href);
  if (rel.includes(" sitemap ") && facts.sitemapLinks.length < 10) facts.sitemapLinks.push(href);
}

/** A `<form>`: its action as written ("" when it posts to the page itself). */
export function readForm(facts: HtmlFacts, attrs: Record<string, string>): void {
  if (facts.formActions.length < LIMIT) facts.formActions.push((attrs.action ?? "").trim());
}

/** A link opening a new tab without `noopener`/`noreferrer` gives the new page `window.opener`. */
export function readBlankTarget(facts: HtmlFacts, attrs: Record<string, string>): void {
  if ((attrs.target ?? "").trim().toLowerCase() !== "_blank" || attrs.href === undefined) return;
  if (/\bno(opener|referrer)\b/i.test(attrs.rel ?? "") || facts.blankLinks.length >= LIMIT) return;
  facts.blankLinks.push(attrs.href.trim());
}
