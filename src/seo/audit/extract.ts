/**
 * One pass of htmlparser2's streaming `Parser` over a page, fed text as it arrives, keeping
 * only compact facts: no DOM and no copy of the text (words feed a SimHash as they stream
 * past). Every fact is the same however the text is cut into chunks.
 * @module
 */
import type { HtmlParser } from "../../../deps-html.ts";
import type { TextSink } from "../fetch/read-body.ts";
import { FactsReader } from "./facts-reader.ts";
import { emptyFacts, type HtmlFacts } from "./html-facts.ts";
import { DocumentHash, LineCounter } from "./page-stream.ts";

/** A page's text in, its facts out: `facts` is complete once `end` returns or its promise settles. */
export interface FactsSink extends TextSink {
  readonly facts: HtmlFacts;
}

/** A new sink per page, or undefined to parse the page on this thread. */
export type FactsSinks = () => FactsSink | undefined;

/** One crawl's page parsing: its sinks, and `close` once the crawl is over (nothing is pending then). */
export interface PageParsing {
  sink: FactsSinks;
  close(): void;
}

/**
 * Where a crawl parses page HTML, started once per audit; without it, pages are parsed on the
 * crawl's own thread. The Node shim's parses on a worker thread.
 */
export type PageParser = () => PageParsing;

export function isFactsSink(sink: TextSink | undefined): sink is FactsSink {
  return sink !== undefined && "facts" in sink;
}

/** Text streamed in with `write`, then `end`; `facts` is complete after `end`. */
export class HtmlExtractor implements FactsSink {
  readonly facts: HtmlFacts = emptyFacts();
  readonly #parser: HtmlParser;
  readonly #lines = new LineCounter();
  readonly #hash = new DocumentHash();

  constructor() {
    this.#parser = new FactsReader(this.facts, (offset) => this.#lines.lineAt(offset)).parser;
  }

  write(text: string): void {
    this.#lines.begin(text);
    this.#hash.add(text);
    this.#parser.write(text);
    this.#lines.end();
  }

  end(): void {
    this.#parser.end();
    this.facts.documentHash = this.#hash.digest();
  }
}

/** Parses `html` once and returns the facts the audit needs. */
export function extractHtml(html: string): HtmlFacts {
  const extractor = new HtmlExtractor();
  extractor.write(html);
  extractor.end();
  return extractor.facts;
}
