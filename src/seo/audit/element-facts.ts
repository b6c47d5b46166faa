/**
 * Facts read from single elements' attributes or text: `<meta>`, `<link>`, a JSON-LD block.
 * @module
 */
import { type HtmlFacts, type JsonLdItem, LIMIT } from "./html-facts.ts";

export function jsonLdItem(text: string): JsonLdItem {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { types: [], error: err instanceof Error ? err.message : String(err) };
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
  return perNode.every((t) => t.length > 0) ? { types } : { types, error: "an item has no @type" };
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

export function readLink(facts: HtmlFacts, attrs: Record<string, string>): void {
  const rel = ` ${(attrs.rel ?? "").toLowerCase()} `;
  const href = attrs.href;
  if (href === undefined) return;
  if (rel.includes(" canonical ")) facts.canonicals.push(href);
  if (rel.includes(" alternate ") && attrs.hreflang !== undefined) facts.hreflang.push({ lang: attrs.hreflang, href });
  if (rel.includes(" stylesheet ") && facts.resources.length < LIMIT) facts.resources.push(href);
  if (rel.includes(" sitemap ") && facts.sitemapLinks.length < 10) facts.sitemapLinks.push(href);
}
