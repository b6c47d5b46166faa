/**
 * The htmlparser2 callbacks of one pass over a page: captured texts, links and word hashing,
 * by region (`content-regions.ts`), written straight into an `HtmlFacts`.
 * @module
 */
import { HtmlParser } from "../../../deps-html.ts";
import { jsonLdItem, readBlankTarget, readForm, readLink, readMeta } from "./element-facts.ts";
import { ContentRegions } from "./content-regions.ts";
import { type HtmlFacts, LIMIT } from "./html-facts.ts";
import { GENERIC_MAX, genericText, labelled } from "./link-text.ts";
import { ItemReader } from "./microdata.ts";
import { isJavaScript, mountPoint, scriptRedirect } from "./script-signs.ts";
import { SimHasher } from "./simhash.ts";

const SKIP_TEXT = new Set(["script", "style", "noscript", "template", "svg"]);
const CODE = new Set(["pre", "code", "table"]);
/** Links followed per page (POLICY.linksPerPage); more are counted in `linksFound` only. */
const LINKS_KEPT = 1000;
const SCRIPT_SCAN = 4096;
const RESOURCE_ATTR: Record<string, string> = {
  img: "src",
  script: "src",
  iframe: "src",
  source: "src",
  video: "src",
  audio: "src",
  embed: "src",
};

/** The parser callbacks: one pass, compact facts, nothing of the text kept beyond small buffers. */
export class FactsReader {
  readonly parser: HtmlParser;
  readonly #facts: HtmlFacts;
  /** Words inside the main content region, and outside it (boilerplate never counts). */
  readonly #main = new SimHasher();
  readonly #rest = new SimHasher();
  #fed = false; // text went to a hasher since the last markup
  #skip = 0;
  readonly #regions = new ContentRegions();
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
    if (this.#skip > 0 || this.#regions.inBoilerplate || this.#capture === "title") return;
    (this.#regions.inMain ? this.#main : this.#rest).addText(text);
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
    this.#regions.enter(name, (attrs.role ?? "").trim().toLowerCase());
    if (SKIP_TEXT.has(name)) this.#openSkipped(name, attrs);
    else if (CODE.has(name) && !this.#regions.inBoilerplate) this.#facts.codeBlocks++;
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

  #mountPoint(name: string, attrs: Record<string, string>): void {
    const found = mountPoint(name, attrs, this.#skip > 0);
    if (found !== undefined) this.#facts.mountPoint = found;
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
    this.#regions.leave(name);
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
      const found = scriptRedirect(this.#buffer);
      if (found !== undefined) this.#facts.scriptRedirect = found;
    }
    if (this.#capture === "jsonld" || this.#capture === "script") this.#capture = undefined;
  }

  #closeAnchor(): void {
    this.#linkWords[0] += this.#main.words - this.#linkMarkMain;
    this.#linkWords[1] += this.#rest.words - this.#linkMarkRest;
    if (this.#capture !== "a" || this.#anchorLabelled) return;
    const text = genericText(this.#buffer);
    if (text !== undefined && this.#facts.genericLinkTexts.length < LIMIT) this.#facts.genericLinkTexts.push(text);
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
      if (!this.#regions.inBoilerplate && this.#skip === 0) this.#links[this.#regions.inMain ? 0 : 1]++;
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
