/**
 * Where an audit keeps each crawled page's summary until the report is built: a `Map` in
 * memory (the default, and all the MCP tools and the gateway use), or a store on disk that the
 * Node adapter opens for a command-line crawl beyond `IN_MEMORY_PAGES` (a SQLite file, see
 * AUDIT.md "Beyond 100,000 pages"). The checks only read through this interface, a page at a
 * time, so neither kind of store is ever copied whole.
 * @module
 */
import type { PageSummary } from "./page-summary.ts";

/** Pages a crawl may fetch with its page summaries in memory; beyond it they go to disk. */
export const IN_MEMORY_PAGES = 100_000;

/** The summaries of the crawled pages by URL, in the order they were first stored (a `Map` is one). */
export interface PageFacts {
  get(url: string): PageSummary | undefined;
  set(url: string, summary: PageSummary): unknown;
  values(): Iterable<PageSummary>;
  readonly size: number;
}

/** A store on disk: closing it removes its file. */
export interface PageFactsStore extends PageFacts {
  close(): void;
}

/** Opens an empty store on disk; throws `ApiError` when this runtime cannot (the message names the fix). */
export type OpenPageFacts = () => Promise<PageFactsStore>;
