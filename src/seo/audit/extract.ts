/**
 * One pass of htmlparser2's streaming `Parser` over a page, fed text as it arrives, keeping
 * only compact facts: no DOM and no copy of the text (words feed a SimHash as they stream
 * past). Every fact is the same however the text is cut into chunks.
 * @module
 */
import { HtmlParser } from "../../../deps.ts";
import { SimHasher } from "./simhash.ts";

export interface JsonLdItem {
  types: string[];
  error?: string;
}

export interface HtmlFacts {
  titles: string[];
  metaDescriptions: string[];
  /** `<link rel=canonical>` hrefs as written. */
  canonicals: string[];
  /** Content of `meta[name=robots|googlebot]`, lower-cased. */
  metaRobots: string[];
  hreflang: { lang: string; href: string }[];
  /** Heading levels in document order. */
  headings: number[];
  h1: string[];
  openGraph: Record<string, string>;
  twitter: Record<string, string>;
  jsonLd: JsonLdItem[];
  /** Words of the main content (outside nav, header, footer, aside, scripts). */
  wordCount: number;
  lang: string | undefined;
  viewport: string | undefined;
  imagesWithoutAlt: string[];
  imageCount: number;
  /** Hrefs of crawlable `<a>` links, as written, with nofollow. */
  links: { href: string; nofollow: boolean }[];
  /** `<a>` elements a crawler cannot follow (no href, `javascript:`), described. */
  uncrawlableLinks: string[];
  genericLinkTexts: string[];
  /** Subresources: img, script, stylesheet, iframe, media sources. */
  resources: string[];
  base: string | undefined;
  simhash: [number, number] | undefined;
}

const SKIP_TEXT = new Set(["script", "style", "noscript", "template", "svg"]);
const BOILERPLATE = new Set(["nav", "header", "footer", "aside"]);
const GENERIC_TEXT = new Set([
  "click here",
  "click this",
  "here",
  "read more",
  "more",
  "learn more",
  "go",
  "start",
  "this",
  "link",
  "right here",
]);
const RESOURCE_ATTR: Record<string, string> = {
  img: "src",
  script: "src",
  iframe: "src",
  source: "src",
  video: "src",
  audio: "src",
  embed: "src",
};

function emptyFacts(): HtmlFacts {
  return {
    titles: [],
    metaDescriptions: [],
    canonicals: [],
    metaRobots: [],
    hreflang: [],
    headings: [],
    h1: [],
    openGraph: {},
    twitter: {},
    jsonLd: [],
    wordCount: 0,
    lang: undefined,
    viewport: undefined,
    imagesWithoutAlt: [],
    imageCount: 0,
    links: [],
    uncrawlableLinks: [],
    genericLinkTexts: [],
    resources: [],
    base: undefined,
    simhash: undefined,
  };
}

function jsonLdItem(text: string): JsonLdItem {
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

const LIMIT = 200; // per-page cap on collected lists: facts stay small on pathological pages

/** Text streamed in with `write`, then `end`; `facts` is complete after `end`. */
export class HtmlExtractor {
  readonly facts: HtmlFacts = emptyFacts();
  readonly #parser: HtmlParser;

  constructor() {
    this.#parser = factsParser(this.facts);
  }

  write(text: string): void {
    this.#parser.write(text);
  }

  end(): void {
    this.#parser.end();
  }
}

/** Parses `html` once and returns the facts the audit needs. */
export function extractHtml(html: string): HtmlFacts {
  const extractor = new HtmlExtractor();
  extractor.write(html);
  extractor.end();
  return extractor.facts;
}

function factsParser(facts: HtmlFacts): HtmlParser {
  const hasher = new SimHasher();
  let fed = false; // text went to the hasher since the last markup
  const endWord = () => {
    hasher.endWord();
    fed = false;
  };
  let skip = 0;
  let boiler = 0;
  let capture: "title" | "h1" | "a" | "jsonld" | undefined;
  let buffer = "";
  let anchorDepth = 0;
  const parser = new HtmlParser(
    {
      onopentag(name, attrs) {
        if (fed) endWord();
        handleOpen(name, attrs);
      },
      ontext(text) {
        if (capture) buffer += text;
        if (skip > 0 || boiler > 0 || capture === "title") return;
        hasher.addText(text);
        fed = true;
      },
      // Text on either side of markup never joins into one word, however it was chunked.
      oncomment: endWord,
      onprocessinginstruction: endWord,
      oncdatastart: endWord,
      onend() {
        facts.wordCount = hasher.words;
        facts.simhash = hasher.digest();
      },
      onclosetag(name) {
        if (fed) endWord();
        if (SKIP_TEXT.has(name)) {
          if (capture === "jsonld" && name === "script") facts.jsonLd.push(jsonLdItem(buffer));
          skip = Math.max(0, skip - 1);
        } else if (BOILERPLATE.has(name)) boiler = Math.max(0, boiler - 1);
        if (name === "title" && capture === "title") facts.titles.push(buffer.trim().replace(/\s+/g, " "));
        if (name === "h1" && capture === "h1") facts.h1.push(buffer.trim().replace(/\s+/g, " "));
        if (name === "a" && capture === "a" && --anchorDepth === 0) {
          const text = buffer.trim().toLowerCase().replace(/\s+/g, " ");
          if (GENERIC_TEXT.has(text) && facts.genericLinkTexts.length < LIMIT)
            facts.genericLinkTexts.push(text);
        }
        if (name === "title" || name === "h1" || name === "script" || (name === "a" && anchorDepth === 0)) {
          if (capture && (name === capture || (name === "script" && capture === "jsonld")))
            capture = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  function handleOpen(name: string, attrs: Record<string, string>): void {
    if (SKIP_TEXT.has(name)) {
      skip++;
      if (name === "script" && (attrs.type ?? "").trim().toLowerCase() === "application/ld+json") {
        capture = "jsonld";
        buffer = "";
      }
    } else if (BOILERPLATE.has(name)) boiler++;
    switch (name) {
      case "html":
        if (attrs.lang !== undefined) facts.lang = attrs.lang.trim();
        return;
      case "base":
        if (attrs.href && facts.base === undefined) facts.base = attrs.href;
        return;
      case "title":
        if (skip === 0) startCapture("title");
        return;
      case "meta":
        meta(attrs);
        return;
      case "link":
        link(attrs);
        return;
      case "a":
        anchor(attrs);
        return;
      case "img":
        facts.imageCount++;
        if (attrs.alt === undefined && facts.imagesWithoutAlt.length < LIMIT)
          facts.imagesWithoutAlt.push(attrs.src ?? "(no src)");
        break;
    }
    if (name.length === 2 && name[0] === "h" && name[1] !== undefined && name[1] >= "1" && name[1] <= "6") {
      facts.headings.push(Number(name[1]));
      if (name === "h1") startCapture("h1");
    }
    const attr = RESOURCE_ATTR[name];
    const src = attr ? attrs[attr] : undefined;
    if (src && facts.resources.length < LIMIT) facts.resources.push(src);
  }

  function startCapture(kind: "title" | "h1" | "a"): void {
    capture = kind;
    buffer = "";
  }

  function meta(attrs: Record<string, string>): void {
    const key = (attrs.name ?? attrs.property ?? "").trim().toLowerCase();
    const content = attrs.content ?? "";
    if (key === "description") facts.metaDescriptions.push(content.trim());
    else if (key === "robots" || key === "googlebot") facts.metaRobots.push(content.toLowerCase());
    else if (key === "viewport") facts.viewport = content;
    else if (key.startsWith("og:")) facts.openGraph[key] ??= content;
    else if (key.startsWith("twitter:")) facts.twitter[key] ??= content;
  }

  function link(attrs: Record<string, string>): void {
    const rel = ` ${(attrs.rel ?? "").toLowerCase()} `;
    const href = attrs.href;
    if (href === undefined) return;
    if (rel.includes(" canonical ")) facts.canonicals.push(href);
    if (rel.includes(" alternate ") && attrs.hreflang !== undefined)
      facts.hreflang.push({ lang: attrs.hreflang, href });
    if (rel.includes(" stylesheet ") && facts.resources.length < LIMIT) facts.resources.push(href);
  }

  function anchor(attrs: Record<string, string>): void {
    anchorDepth++;
    if (anchorDepth === 1 && capture === undefined) startCapture("a");
    const href = attrs.href?.trim();
    const target = href === undefined && (attrs.name !== undefined || attrs.id !== undefined);
    if (!target && (href === undefined || href === "" || /^javascript:/i.test(href))) {
      const described = href === undefined ? "<a> without href" : `<a href="${href}">`;
      if (facts.uncrawlableLinks.length < LIMIT) facts.uncrawlableLinks.push(described);
      return;
    }
    if (href === undefined || href.startsWith("#") || /^(mailto|tel|data):/i.test(href)) return;
    if (facts.links.length < LIMIT * 5)
      facts.links.push({ href, nofollow: /\bnofollow\b/i.test(attrs.rel ?? "") });
  }

  return parser;
}
