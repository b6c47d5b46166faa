/**
 * The compact facts one pass over a page's HTML keeps: the vocabulary the page checks read.
 * @module
 */

export interface JsonLdItem {
  types: string[];
  error?: string;
  /** Line of the page where the block's text starts, and where a syntax error is. */
  line?: number;
  /** Rich-result properties missing, as "Type: property" (Google's required ones, then recommended). */
  missing?: string[];
  recommended?: string[];
  /** Set on items read from Microdata or RDFa attributes rather than a JSON-LD block. */
  format?: "microdata" | "rdfa";
}

export interface HtmlFacts {
  titles: string[];
  metaDescriptions: string[];
  /** `<link rel=canonical>` hrefs as written. */
  canonicals: string[];
  /** Of those, how many sit in the `<body>`, where search engines ignore them. */
  canonicalsInBody: number;
  /** `<link rel=next>` and `<link rel=prev>` hrefs as written (paginated series). */
  relNext: string | undefined;
  relPrev: string | undefined;
  /** `<form action>` values as written (a form without one posts to the page itself). */
  formActions: string[];
  /** Hrefs of `<a target=_blank>` without rel noopener or noreferrer. */
  blankLinks: string[];
  /** Content of `meta[name=robots|googlebot]`, lower-cased. */
  metaRobots: string[];
  hreflang: { lang: string; href: string }[];
  /** Heading levels in document order. */
  headings: number[];
  h1: string[];
  openGraph: Record<string, string>;
  twitter: Record<string, string>;
  jsonLd: JsonLdItem[];
  /** Top-level Microdata and RDFa items (property names only), judged like JSON-LD. */
  microdata: JsonLdItem[];
  /**
   * Words of the main content: inside `<main>`, `<article>` or `[role=main]` when the page has
   * one, else the whole body; navigation, header, footer, aside (and their ARIA roles) and
   * scripts never count.
   */
  wordCount: number;
  /** Of those, words inside links (a page of mostly link text is a hub: an index or category). */
  linkWords: number;
  /** Links in the same region as `wordCount`. */
  linkCount: number;
  /** `<pre>`, `<code>` and `<table>` elements: reference pages carry their content there. */
  codeBlocks: number;
  /** `<script>` elements that run JavaScript (with a src or inline), JSON-LD and templates apart. */
  scripts: number;
  /**
   * The first element a script framework mounts into (`<div id="root">`, `<app-root>`), as
   * written, when the page has one: with next to no text and links, the page is built by script.
   */
  mountPoint: string | undefined;
  /** `<meta http-equiv=refresh>`: seconds and the target as written (no url: a reload). */
  metaRefresh: { seconds: number; url: string | undefined } | undefined;
  /** A `location = / location.href = / location.replace( / location.assign(` target in an inline script. */
  scriptRedirect: string | undefined;
  /** `<link rel="sitemap">` hrefs. */
  sitemapLinks: string[];
  /** Crawlable `<a href>` links on the page, also those beyond the kept list. */
  linksFound: number;
  /** U+FFFD characters in the text: bytes that were not valid in the page's encoding. */
  replacementChars: number;
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
  /** A 53-bit hash of the whole document: equal for byte-identical pages. */
  documentHash: number | undefined;
}

/** Per-page cap on collected lists: facts stay small on pathological pages. */
export const LIMIT = 200;

export function emptyFacts(): HtmlFacts {
  return {
    titles: [],
    metaDescriptions: [],
    canonicals: [],
    canonicalsInBody: 0,
    relNext: undefined,
    relPrev: undefined,
    formActions: [],
    blankLinks: [],
    metaRobots: [],
    hreflang: [],
    headings: [],
    h1: [],
    openGraph: {},
    twitter: {},
    jsonLd: [],
    microdata: [],
    wordCount: 0,
    linkWords: 0,
    linkCount: 0,
    codeBlocks: 0,
    scripts: 0,
    mountPoint: undefined,
    metaRefresh: undefined,
    scriptRedirect: undefined,
    sitemapLinks: [],
    linksFound: 0,
    replacementChars: 0,
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
    documentHash: undefined,
  };
}
