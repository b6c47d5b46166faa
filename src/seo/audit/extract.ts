/**
 * One pass of htmlparser2's streaming `Parser` over a page, fed text as it arrives, keeping
 * only compact facts: no DOM and no copy of the text (words feed a SimHash as they stream
 * past). Every fact is the same however the text is cut into chunks.
 * @module
 */
import type { HtmlParser } from "../../../deps.ts";
import { FactsReader } from "./facts-reader.ts";
import { emptyFacts, type HtmlFacts } from "./html-facts.ts";

/** Text streamed in with `write`, then `end`; `facts` is complete after `end`. */
export class HtmlExtractor {
  readonly facts: HtmlFacts = emptyFacts();
  readonly #parser: HtmlParser;

  constructor() {
    this.#parser = new FactsReader(this.facts).parser;
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
