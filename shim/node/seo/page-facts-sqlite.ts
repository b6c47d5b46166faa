/**
 * The page summaries of a crawl beyond 100,000 pages in a SQLite file (`node:sqlite`, built into
 * Node 22.13 and later; no native addon): one row per page, its summary as JSON, written in
 * batched transactions while the crawl runs and read back a page at a time by the checks. The
 * file lives beside the stored reports and only as long as the audit: closing the store, or the
 * next store opened after a crash, removes it. See AUDIT.md "Beyond 100,000 pages".
 * @module
 */
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { ApiError, type PageFactsStore, type PageSummary } from "../../../src/seo/commands.ts";

/** Rows written per transaction: one commit per batch, not per page. */
const BATCH = 2000;
/** A crawl file not touched for this long belongs to a process that is gone. */
const STALE_MS = 24 * 3600 * 1000;

type Sqlite = typeof import("node:sqlite");

/** The Node release that has `node:sqlite` without a flag. */
export const SQLITE_NODE = "22.13";

/** `node:sqlite`, without the experimental warning it prints on load (a CLI's stderr is its user's). */
export async function loadSqlite(load: () => Promise<Sqlite> = () => import("node:sqlite")): Promise<Sqlite> {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
    if (!String(warning).includes("SQLite")) emit.call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return await load();
  } catch {
    throw new ApiError(
      "INVALID_ARGUMENTS",
      `a crawl beyond 100,000 pages keeps its pages on disk with node:sqlite, which Node ${process.version} does not have; upgrade Node to ${SQLITE_NODE} or later, or audit at most 100,000 pages (--max-pages 100000)`,
    );
  } finally {
    process.emitWarning = emit;
  }
}

/** Crawl files left by audits that were killed: nothing reads them again. */
function removeStale(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!/^crawl-.*\.sqlite(-journal)?$/.test(name)) continue;
    const path = join(dir, name);
    // Another audit's clean-up may remove it between the listing and this look.
    const touched = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    if (touched !== undefined && Date.now() - touched > STALE_MS) rmSync(path, { force: true });
  }
}

class SqlitePageFacts implements PageFactsStore {
  readonly #db: DatabaseSync;
  readonly #path: string;
  readonly #insert: StatementSync;
  readonly #update: StatementSync;
  readonly #get: StatementSync;
  #pending = 0;
  #size = 0;

  constructor(sqlite: Sqlite, path: string) {
    this.#path = path;
    this.#db = new sqlite.DatabaseSync(path);
    // A scratch file: a crash loses the audit anyway, so no journal syncs.
    this.#db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -8192");
    this.#db.exec("CREATE TABLE page (url TEXT PRIMARY KEY, summary TEXT NOT NULL)");
    this.#insert = this.#db.prepare("INSERT OR IGNORE INTO page (url, summary) VALUES (?, ?)");
    // A URL stored twice keeps its row, and its place in the order, as in a Map.
    this.#update = this.#db.prepare("UPDATE page SET summary = ? WHERE url = ?");
    this.#get = this.#db.prepare("SELECT summary FROM page WHERE url = ?");
  }

  get size(): number {
    return this.#size;
  }

  set(url: string, summary: PageSummary): this {
    if (this.#pending === 0) this.#db.exec("BEGIN");
    const json = JSON.stringify(summary);
    if (this.#insert.run(url, json).changes === 0) this.#update.run(json, url);
    else this.#size++;
    if (++this.#pending >= BATCH) this.#commit();
    return this;
  }

  get(url: string): PageSummary | undefined {
    const row = this.#get.get(url) as { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as PageSummary) : undefined;
  }

  *values(): Generator<PageSummary> {
    this.#commit();
    const rows = this.#db.prepare("SELECT summary FROM page ORDER BY rowid").iterate() as Iterable<{ summary: string }>;
    for (const row of rows) yield JSON.parse(row.summary) as PageSummary;
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
    rmSync(this.#path, { force: true });
  }

  #commit(): void {
    if (this.#pending === 0) return;
    this.#db.exec("COMMIT");
    this.#pending = 0;
  }
}

/** Opens an empty store in a new file under `dir`. */
export async function openSqlitePageFacts(dir: string, load?: () => Promise<Sqlite>): Promise<PageFactsStore> {
  const sqlite = await loadSqlite(load);
  mkdirSync(dir, { recursive: true });
  removeStale(dir);
  const random = crypto.getRandomValues(new Uint32Array(1))[0]?.toString(36) ?? "0";
  return new SqlitePageFacts(sqlite, join(dir, `crawl-${process.pid}-${random}.sqlite`));
}
