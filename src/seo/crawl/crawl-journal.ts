/**
 * What a resumable crawl writes down of each URL it fetched, so that a crawl interrupted (Ctrl-C,
 * a killed process) can be run again without fetching those URLs: the crawl asks the journal
 * first, and a URL it has is answered from it as if it had just been fetched. The visitor, the
 * frontier and every check then run as they did, which is why the resumed report is the one an
 * uninterrupted crawl makes. See AUDIT.md "Resuming an interrupted crawl".
 * @module
 */
import type { FetchedPage } from "../fetch/fetch-page.ts";
import type { ResponseHeaders } from "../fetch/http-request.ts";
import type { TextSink } from "../fetch/read-body.ts";
import type { HtmlFacts } from "../audit/html-facts.ts";

/** A fetched URL as it is kept: plain data (the page's parsed facts instead of its body's stream). */
export interface PageRecord extends Omit<FetchedPage, "headers" | "sink"> {
  /** The header fields the audit read, by lower-case name (a field it never read is not kept). */
  headers: [string, string | null][];
  /** The facts the page's text streamed into, when it was parsed as it was read. */
  facts: HtmlFacts | undefined;
}

/** Where a resumable crawl keeps its fetched URLs (the Node CLI's is the crawl's SQLite file). */
export interface CrawlJournal {
  /** The URL's record when an earlier run of this crawl fetched it. */
  replay(url: string): PageRecord | undefined;
  /** A URL fetched (and, for a page, visited) by this run. */
  record(page: PageRecord): void;
}

/** Response headers that remember what was read of them, so the journal keeps just that. */
export class ReadHeaders implements ResponseHeaders {
  readonly read = new Map<string, string | null>();
  readonly #headers: ResponseHeaders;

  constructor(headers: ResponseHeaders) {
    this.#headers = headers;
  }

  get(name: string): string | null {
    const key = name.toLowerCase();
    if (this.read.has(key)) return this.read.get(key) ?? null;
    const value = this.#headers.get(name);
    this.read.set(key, value);
    return value;
  }
}

/** The headers of a record: what the audit read then, and nothing else. */
function recordedHeaders(fields: [string, string | null][]): ResponseHeaders {
  const byName = new Map(fields);
  return { get: (name) => byName.get(name.toLowerCase()) ?? null };
}

/** A sink whose facts are already known: the text it stood for is not read again. */
function parsedSink(facts: HtmlFacts): TextSink & { facts: HtmlFacts } {
  return { facts, write: () => undefined, end: () => undefined };
}

/** The record of a page fetched with `ReadHeaders` (read once the visitor is done with it). */
export function pageRecord(page: FetchedPage, headers: ReadHeaders): PageRecord {
  const { sink, headers: _, ...fetched } = page;
  return { ...fetched, headers: [...headers.read], facts: (sink as { facts?: HtmlFacts } | undefined)?.facts };
}

/** The fetched page a record stands for. */
export function pageOfRecord(record: PageRecord): FetchedPage {
  const { headers, facts, ...fetched } = record;
  return { ...fetched, headers: recordedHeaders(headers), ...(facts ? { sink: parsedSink(facts) } : {}) };
}
