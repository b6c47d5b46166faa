/**
 * Where an audit keeps each crawled page's summary until the report is built: a `Map` in
 * memory (the default, and all the MCP tools and the gateway use), or a store on disk that the
 * Node adapter opens for a command-line crawl beyond `IN_MEMORY_PAGES` (a SQLite file, see
 * AUDIT.md "Beyond 100,000 pages"). The checks only read through this interface, a page at a
 * time, so neither kind of store is ever copied whole.
 * @module
 */
import type { CrawlJournal } from "../crawl/crawl-journal.ts";
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

/**
 * A crawl kept on disk under its report id (see AUDIT.md "Resuming an interrupted crawl"): the
 * page summaries, the journal of fetched URLs, and the request it was started with.
 */
export interface CrawlState extends PageFactsStore, CrawlJournal {
  readonly id: string;
  /** The audit request the crawl was started with (its crawl options; never `compare_to`). */
  readonly request: Record<string, unknown>;
  /** URLs in the journal: those a resumed crawl answers without fetching. */
  readonly recorded: number;
  /** Ends this run's use of the state: `keep` leaves it for --resume, otherwise it is removed. */
  close(keep?: boolean): void;
}

/** Where crawl states live; both throw `ApiError` with the next step (RESUME_* codes, or an old runtime). */
export interface CrawlStates {
  /** A new, empty state for the crawl that will be stored as report `id`. */
  create(id: string, request: Record<string, unknown>): Promise<CrawlState>;
  /** The state an interrupted crawl left under `id`, its page summaries emptied (the journal refills them). */
  resume(id: string): Promise<CrawlState>;
}
