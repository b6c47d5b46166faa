/**
 * The htmlparser2 callbacks of one pass over a page: regions (main content, boilerplate),
 * captured texts and word hashing, written straight into an `HtmlFacts`.
 * @module
 */
import { HtmlParser } from "../../../deps-html.ts";
import { jsonLdItem, readBlankTarget, readForm, readLink, readMeta } from "./element-facts.ts";
import { type HtmlFacts, LIMIT } from "./html-facts.ts";
import { ItemReader } from "./microdata.ts";
import { SimHasher } from "./simhash.ts";

const SKIP_TEXT = new Set(["script", "style", "noscript", "template", "svg"]);
const BOILERPLATE = new Set(["nav", "header", "footer", "aside"]);
const BOILERPLATE_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search"]);
const MAIN = new Set(["main", "article"]);
const CODE = new Set(["pre", "code", "table"]);
/** Links followed per page (POLICY.linksPerPage); more are counted in `linksFound` only. */
const LINKS_KEPT = 1000;
const SCRIPT_SCAN = 4096;
const SCRIPT_REDIRECT =
  /\b(?:(?:window|document|self|top)\.)?location(?:\.href)?\s*=\s*(["'`])([^"'`\s]+)\1|\blocation\.(?:replace|assign)\(\s*(["'`])([^"'`\s]+)\3\s*\)/;
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
/** Longest generic link text, with room for stray spaces. */
const GENERIC_MAX = Math.max(...[...GENERIC_TEXT].map((t) => t.length)) + 8;
const RESOURCE_ATTR: Record<string, string> = {
  img: "src",
  script: "src",
  iframe: "src",
  source: "src",
  video: "src",
  audio: "src",
  embed: "src",
};

/** Ids the common script frameworks mount into (React, Vue, Next, Nuxt, Gatsby, Svelte, Quasar, Ember). */
const MOUNT_IDS = new Set(["root", "app", "__next", "__nuxt", "___gatsby", "svelte", "q-app", "ember-app", "app-root", "main-app"]);

/** An element that opens a main-content or boilerplate region, and same-named elements inside it. */
interface Region {
  tag: string;
  nested: number;
  main: boolean;
}

/**
 * A link whose `title` or `aria-label` says more than a generic phrase, or that names its label
 * element, describes its target to search engines and screen readers alike: a language tab
 * "Go" titled "Go language: …" is not "click here".
 */
function labelled(attrs: Record<string, string>): boolean {
  if ((attrs["aria-labelledby"] ?? "").trim() !== "") return true;
  return [attrs.title, attrs["aria-label"]].some((label) => {
    const text = (label ?? "").trim().toLowerCase().replace(/\s+/g, " ");
    return text !== "" && !GENERIC_TEXT.has(text);
  });
}

const isJavaScript = (type: string | undefined) =>
  type === undefined || /^\s*(text\/javascript|application\/javascript|module)?\s*$/i.test(type);

/** The parser callbacks: one pass, compact facts, nothing of the text kept beyond small buffers. */
export class FactsReader {
  readonly parser: HtmlParser;
  readonly #facts: HtmlFacts;
  /** Words inside the main content region, and outside it (boilerplate never counts). */
  readonly #main = new SimHasher();
  readonly #rest = new SimHasher();
  #fed = false; // text went to a hasher since the last markup
  #skip = 0;
  readonly #regions: Region[] = [];
  #inMain = 0;
  #inBoiler = 0;
  #capture: "title" | "h1" | "a" | "jsonld" | "script" | undefined;
  #buffer = "";
  #anchorDepth = 0;
  /** The open link names its target in `title`, `aria-label` or `aria-labelledby`. */
  #anchorLabelled = false;
  #linkMarkMain = 0;
  #linkMarkRest = 0;
  readonly #linkWords: [number, number] = [0, 0];
  readonly #links: [number, number] = [0, 0];
  #scriptsScanned = 0;
  /** The line of a parser offset (`HtmlExtractor` counts them), and where the open JSON-LD block starts. */
  readonly #lineAt: (offset: number) => number;
  #jsonLdLine = 1;
  #inBody = false;
  readonly #items = new ItemReader();

  constructor(facts: HtmlFacts, lineAt: (offset: number) => number = () => 1) {
    this.#facts = facts;
    this.#lineAt = lineAt;
    this.parser = new HtmlParser(
      {
        onopentag: (name, attrs) => this.#open(name, attrs),
        ontext: (text) => this.#text(text),
        onclosetag: (name) => this.#close(name),
        // Text on either side of markup never joins into one word, however it was chunked.
        oncomment: () => this.#endWord(),
        onprocessinginstruction: () => this.#endWord(),
        oncdatastart: () => this.#endWord(),
        onend: () => this.#end(),
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    );
  }

  #endWord(): void {
    this.#main.endWord();
    this.#rest.endWord();
    this.#fed = false;
  }

  #text(text: string): void {
    if (this.#capture) this.#keep(text);
    if (text.includes("\ufffd")) this.#facts.replacementChars += text.split("\ufffd").length - 1;
    if (this.#skip > 0 || this.#inBoiler > 0 || this.#capture === "title") return;
    (this.#inMain > 0 ? this.#main : this.#rest).addText(text);
    this.#fed = true;
  }

  /** Buffers captured text; link texts and scripts only as far as they are looked at. */
  #keep(text: string): void {
    const capture = this.#capture;
    if (capture === "title" || capture === "h1" || capture === "jsonld") this.#buffer += text;
    else if (this.#buffer.length <= GENERIC_MAX * 2 || (capture === "script" && this.#buffer.length < SCRIPT_SCAN))
      this.#buffer += text.length > SCRIPT_SCAN ? text.slice(0, SCRIPT_SCAN) : text;
  }

  #end(): void {
    this.#facts.microdata = this.#items.items;
    const useMain = this.#main.words > 0;
    const hasher = useMain ? this.#main : this.#rest;
    this.#facts.wordCount = hasher.words;
    this.#facts.linkWords = this.#linkWords[useMain ? 0 : 1];
    this.#facts.linkCount = this.#links[useMain ? 0 : 1];
    this.#facts.simhash = hasher.digest();
  }

  #open(name: string, attrs: Record<string, string>): void {
    if (this.#fed) this.#endWord();
    this.#items.open(attrs);
    this.#enterRegion(name, (attrs.role ?? "").trim().toLowerCase());
    if (SKIP_TEXT.has(name)) this.#openSkipped(name, attrs);
    else if (CODE.has(name) && this.#inBoiler === 0) this.#facts.codeBlocks++;
    this.#element(name, attrs);
    if (this.#facts.mountPoint === undefined) this.#mountPoint(name, attrs);
    if (name.length === 2 && name[0] === "h" && name[1] !== undefined && name[1] >= "1" && name[1] <= "6") {
      this.#facts.headings.push(Number(name[1]));
      if (name === "h1") this.#startCapture("h1");
    }
    const attr = RESOURCE_ATTR[name];
    const src = attr ? attrs[attr] : undefined;
    if (src && this.#facts.resources.length < LIMIT) this.#facts.resources.push(src);
  }

  #enterRegion(name: string, role: string): void {
    const main = MAIN.has(name) || role === "main";
    if (main || BOILERPLATE.has(name) || BOILERPLATE_ROLES.has(role)) {
      this.#regions.push({ tag: name, nested: 0, main });
      if (main) this.#inMain++;
      else this.#inBoiler++;
      return;
    }
    for (let i = this.#regions.length - 1; i >= 0; i--) {
      const region = this.#regions[i] as Region;
      if (region.tag !== name) continue;
      region.nested++;
      return;
    }
  }

  #leaveRegion(name: string): void {
    for (let i = this.#regions.length - 1; i >= 0; i--) {
      const region = this.#regions[i] as Region;
      if (region.tag !== name) continue;
      if (region.nested > 0) region.nested--;
      else {
        this.#regions.splice(i, 1);
        if (region.main) this.#inMain--;
        else this.#inBoiler--;
      }
      return;
    }
  }

  /** An element named like a framework's mount point: an id it mounts into, or a custom element (`<app-root>`). */
  #mountPoint(name: string, attrs: Record<string, string>): void {
    const id = attrs.id?.trim();
    if (id !== undefined && MOUNT_IDS.has(id.toLowerCase())) this.#facts.mountPoint = `<${name} id="${id}">`;
    else if (name.includes("-") && this.#skip === 0) this.#facts.mountPoint = `<${name}>`;
  }

  #openSkipped(name: string, attrs: Record<string, string>): void {
    this.#skip++;
    if (name !== "script") return;
    const type = attrs.type?.trim().toLowerCase();
    if (isJavaScript(type)) this.#facts.scripts++;
    if (type === "application/ld+json") this.#startJsonLd();
    else if (attrs.src === undefined && isJavaScript(type) && this.#capture === undefined && this.#scriptsScanned++ < 10)
      this.#startCapture("script");
  }

  #element(name: string, attrs: Record<string, string>): void {
    const facts = this.#facts;
    switch (name) {
      case "html":
        if (attrs.lang !== undefined) facts.lang = attrs.lang.trim();
        return;
      case "base":
        if (attrs.href && facts.base === undefined) facts.base = attrs.href;
        return;
      case "title":
        if (this.#skip === 0) this.#startCapture("title");
        return;
      case "meta":
        readMeta(facts, attrs);
        return;
      case "link":
        readLink(facts, attrs, this.#inBody);
        return;
      case "body":
        this.#inBody = true;
        return;
      case "form":
        readForm(facts, attrs);
        return;
      case "a":
        this.#anchor(attrs);
        readBlankTarget(facts, attrs);
        return;
      case "img":
        facts.imageCount++;
        if (attrs.alt === undefined && facts.imagesWithoutAlt.length < LIMIT)
          facts.imagesWithoutAlt.push(attrs.src ?? "(no src)");
        return;
    }
  }

  #close(name: string): void {
    if (this.#fed) this.#endWord();
    this.#items.close();
    const facts = this.#facts;
    const capture = this.#capture;
    if (SKIP_TEXT.has(name)) {
      if (name === "script") this.#closeScript();
      this.#skip = Math.max(0, this.#skip - 1);
    }
    this.#leaveRegion(name);
    if (name === "title" && capture === "title") facts.titles.push(this.#buffer.trim().replace(/\s+/g, " "));
    if (name === "h1" && capture === "h1") facts.h1.push(this.#buffer.trim().replace(/\s+/g, " "));
    if (name === "a" && this.#anchorDepth > 0 && --this.#anchorDepth === 0) this.#closeAnchor();
    if (capture === name && (name !== "a" || this.#anchorDepth === 0)) this.#capture = undefined;
  }

  /** The block's text starts after the tag's `>`: its line places syntax errors in the page. */
  #startJsonLd(): void {
    this.#startCapture("jsonld");
    this.#jsonLdLine = this.#lineAt(this.parser.endIndex + 1);
  }

  #closeScript(): void {
    if (this.#capture === "jsonld") this.#facts.jsonLd.push(jsonLdItem(this.#buffer, this.#jsonLdLine));
    if (this.#capture === "script" && this.#facts.scriptRedirect === undefined) {
      const found = SCRIPT_REDIRECT.exec(this.#buffer);
      if (found) this.#facts.scriptRedirect = found[2] ?? found[4];
    }
    if (this.#capture === "jsonld" || this.#capture === "script") this.#capture = undefined;
  }

  #closeAnchor(): void {
    this.#linkWords[0] += this.#main.words - this.#linkMarkMain;
    this.#linkWords[1] += this.#rest.words - this.#linkMarkRest;
    // The generic phrases are short: longer link texts need no normalising to rule them out.
    if (this.#capture !== "a" || this.#buffer.length > GENERIC_MAX || this.#anchorLabelled) return;
    const text = this.#buffer.trim().toLowerCase().replace(/\s+/g, " ");
    if (GENERIC_TEXT.has(text) && this.#facts.genericLinkTexts.length < LIMIT)
      this.#facts.genericLinkTexts.push(text);
  }

  #startCapture(kind: "title" | "h1" | "a" | "jsonld" | "script"): void {
    this.#capture = kind;
    this.#buffer = "";
  }

  #anchor(attrs: Record<string, string>): void {
    const facts = this.#facts;
    if (++this.#anchorDepth === 1) {
      this.#linkMarkMain = this.#main.words;
      this.#linkMarkRest = this.#rest.words;
      if (this.#inBoiler === 0 && this.#skip === 0) this.#links[this.#inMain > 0 ? 0 : 1]++;
      if (this.#capture === undefined) this.#startCapture("a");
      this.#anchorLabelled = labelled(attrs);
    }
    const href = attrs.href?.trim();
    const target = href === undefined && (attrs.name !== undefined || attrs.id !== undefined);
    if (!target && (href === undefined || href === "" || /^javascript:/i.test(href))) {
      const described = href === undefined ? "<a> without href" : `<a href="${href}">`;
      if (facts.uncrawlableLinks.length < LIMIT) facts.uncrawlableLinks.push(described);
      return;
    }
    if (href === undefined || href.startsWith("#") || /^(mailto|tel|data):/i.test(href)) return;
    facts.linksFound++;
    if (facts.links.length < LINKS_KEPT)
      facts.links.push({ href, nofollow: /\bnofollow\b/i.test(attrs.rel ?? "") });
  }
}
