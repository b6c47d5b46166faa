/**
 * The crawl state of a crawl kept on disk (beyond 100,000 pages, or `--resumable`) in a SQLite
 * file (`node:sqlite`, built into Node 22.13 and later; no native addon), named after the report
 * id: the page summaries (one row per page, as JSON) the checks read back a page at a time, the
 * journal of fetched URLs (a row per URL, structured-clone bytes) an interrupted crawl resumes
 * from, and the request it was started with. Rows are written in transactions committed every
 * 2,000 rows or every second, in WAL mode, so a killed process leaves every committed row
 * readable. The file is locked while an audit has it open. A finished crawl removes its file;
 * an interrupted one keeps it for `--resume`; a file untouched for a day is removed by the next
 * crawl. See AUDIT.md "Beyond 100,000 pages" and "Resuming an interrupted crawl".
 * @module
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { deserialize, serialize } from "node:v8";
import {
  ApiError,
  type CrawlState,
  type CrawlStates,
  IN_MEMORY_PAGES,
  type PageRecord,
  type PageSummary,
  REPORT_ID,
  VERSION,
} from "../../../src/seo/commands.ts";

/** Rows written per transaction: one commit per batch, not per page. */
const BATCH = 2000;
/** ...and at least this often, so a killed crawl loses at most a second of its pages. */
const COMMIT_MS = 1000;
/** A crawl file not touched for this long is removed (an interrupted crawl can be resumed for a day). */
const STALE_MS = 24 * 3600 * 1000;
/** The layout of the file: a state written with another cannot be resumed. */
const FORMAT = "1";

type Sqlite = typeof import("node:sqlite");

/** The Node release that has `node:sqlite` without a flag. */
export const SQLITE_NODE = "22.13";

const pages = IN_MEMORY_PAGES.toLocaleString("en");

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
      `a crawl beyond ${pages} pages, or one kept resumable, keeps its pages on disk with node:sqlite, which Node ${process.version} does not have; upgrade Node to ${SQLITE_NODE} or later, or audit at most ${pages} pages (--max-pages ${IN_MEMORY_PAGES}) without --resumable`,
    );
  } finally {
    process.emitWarning = emit;
  }
}

/** Crawl files nobody resumed within a day. */
function removeStale(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!/^crawl-.*\.sqlite(-journal|-wal|-shm)?$/.test(name)) continue;
    const path = join(dir, name);
    // Another audit's clean-up may remove it between the listing and this look.
    const touched = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    if (touched !== undefined && Date.now() - touched > STALE_MS) rmSync(path, { force: true });
  }
}

const PAGE_TABLE = "CREATE TABLE page (url TEXT PRIMARY KEY, summary TEXT NOT NULL)";

const fileOf = (dir: string, id: string) => join(dir, `crawl-${id}.sqlite`);

/** SQLite's primary result code of a failure (SQLITE_BUSY is 5, SQLITE_CORRUPT 11, SQLITE_NOTADB 26). */
const sqliteCode = (err: unknown) => ((err as { errcode?: number }).errcode ?? 0) & 0xff;

/** A failure opening or reading a saved crawl, in the user's terms. */
function resumeError(err: unknown, id: string, path: string): unknown {
  const code = sqliteCode(err);
  if (code === 5 || code === 6)
    return new ApiError("RESUME_LOCKED", `the crawl ${id} is open in another running audit (${path} is locked); wait for that audit to end or stop it with Ctrl-C, then run audit --resume ${id} again`);
  if (code === 11 || code === 26 || err instanceof SyntaxError || err instanceof TypeError)
    return new ApiError("RESUME_CORRUPT", `the saved crawl ${id} cannot be read (${path}: ${(err as Error).message}); run the audit again without --resume (the file is removed after a day)`);
  return err;
}

/** Opens `path` for this process alone: a second audit on the same file fails with SQLITE_BUSY. */
function openLocked(sqlite: Sqlite, path: string): DatabaseSync {
  const db = new sqlite.DatabaseSync(path);
  try {
    // WAL: a killed process leaves every committed row; checkpoints (and their syncs) every 64 MiB of it, not every 4.
    db.exec(
      "PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 16384; PRAGMA cache_size = -8192",
    );
    // The first write takes the lock, held until the file is closed (or the process ends).
    db.exec("BEGIN IMMEDIATE; COMMIT");
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

class SqliteCrawlState implements CrawlState {
  readonly id: string;
  readonly request: Record<string, unknown>;
  readonly #db: DatabaseSync;
  readonly #path: string;
  readonly #insert: StatementSync;
  readonly #update: StatementSync;
  readonly #get: StatementSync;
  readonly #record: StatementSync;
  readonly #replay: StatementSync;
  #pending = 0;
  #committedAt = performance.now();
  #size = 0;
  #recorded: number;
  /** URLs an earlier run recorded: none, and no URL is looked up. */
  readonly #replayable: number;

  constructor(db: DatabaseSync, path: string, id: string) {
    this.#db = db;
    this.#path = path;
    this.id = id;
    const meta = new Map(
      (db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => [r.key, r.value]),
    );
    this.request = JSON.parse(meta.get("request") ?? "") as Record<string, unknown>;
    this.#recorded = (db.prepare("SELECT count(*) AS n FROM fetched").get() as { n: number }).n;
    this.#replayable = this.#recorded;
    this.#insert = db.prepare("INSERT OR IGNORE INTO page (url, summary) VALUES (?, ?)");
    // A URL stored twice keeps its row, and its place in the order, as in a Map.
    this.#update = db.prepare("UPDATE page SET summary = ? WHERE url = ?");
    this.#get = db.prepare("SELECT summary FROM page WHERE url = ?");
    this.#record = db.prepare("INSERT OR IGNORE INTO fetched (url, record) VALUES (?, ?)");
    this.#replay = db.prepare("SELECT record FROM fetched WHERE url = ?");
  }

  get size(): number {
    return this.#size;
  }

  get recorded(): number {
    return this.#recorded;
  }

  set(url: string, summary: PageSummary): this {
    this.#begin();
    const json = JSON.stringify(summary);
    if (this.#insert.run(url, json).changes === 0) this.#update.run(json, url);
    else this.#size++;
    this.#wrote();
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

  record(page: PageRecord): void {
    this.#begin();
    if (this.#record.run(page.url, serialize(page)).changes > 0) this.#recorded++;
    this.#wrote();
  }

  replay(url: string): PageRecord | undefined {
    if (this.#replayable === 0) return undefined;
    try {
      const row = this.#replay.get(url) as { record: Uint8Array } | undefined;
      return row ? (deserialize(row.record) as PageRecord) : undefined;
    } catch (err) {
      throw resumeError(err, this.id, this.#path);
    }
  }

  close(keep = false): void {
    if (this.#db.isOpen) {
      this.#commit();
      this.#db.close();
    }
    if (keep) return;
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${this.#path}${suffix}`, { force: true });
  }

  #begin(): void {
    if (this.#pending === 0) this.#db.exec("BEGIN");
  }

  #wrote(): void {
    if (++this.#pending >= BATCH || performance.now() - this.#committedAt >= COMMIT_MS) this.#commit();
  }

  #commit(): void {
    this.#committedAt = performance.now();
    if (this.#pending === 0) return;
    this.#db.exec("COMMIT");
    this.#pending = 0;
  }
}

/** A new state: its tables, and what it must match to be resumed. */
function createState(sqlite: Sqlite, path: string, id: string, request: Record<string, unknown>): CrawlState {
  const db = openLocked(sqlite, path);
  db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    ${PAGE_TABLE};
    CREATE TABLE fetched (url TEXT PRIMARY KEY, record BLOB NOT NULL)`);
  const meta = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
  const rows: [string, string][] = [["format", FORMAT], ["version", VERSION], ["request", JSON.stringify(request)]];
  for (const [key, value] of rows) meta.run(key, value);
  return new SqliteCrawlState(db, path, id);
}

/** The state under `path`, checked to be one this version can resume, its page summaries emptied. */
function resumeState(sqlite: Sqlite, path: string, id: string): CrawlState {
  const db = openLocked(sqlite, path);
  try {
    const row = (key: string) => (db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)?.value;
    const [format, version] = [row("format"), row("version")];
    if (format === undefined) throw new TypeError("no crawl state in it");
    if (format !== FORMAT || version !== VERSION)
      throw new ApiError("RESUME_MISMATCH", `the crawl ${id} was saved by seo-audit-mcp ${version ?? "?"} (crawl file format ${format}), and this is ${VERSION} (format ${FORMAT}); run the audit again without --resume, or resume it with version ${version ?? "?"}`);
    // The journal refills them in the resumed crawl's order, as a crawl that never stopped stores them.
    db.exec(`DROP TABLE page; ${PAGE_TABLE}`);
    return new SqliteCrawlState(db, path, id);
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Crawl states as SQLite files in `dir` (the report store's folder). */
export function sqliteCrawlStates(dir: string, load?: () => Promise<Sqlite>): CrawlStates {
  const prepare = async () => {
    const sqlite = await loadSqlite(load);
    mkdirSync(dir, { recursive: true });
    removeStale(dir);
    return sqlite;
  };
  return {
    async create(id, request) {
      return createState(await prepare(), fileOf(dir, id), id, request);
    },
    async resume(id) {
      const sqlite = await prepare();
      const path = fileOf(dir, id);
      // Ids are file names: never let one escape the folder.
      if (!REPORT_ID.test(id) || !existsSync(path))
        throw new ApiError("RESUME_NOT_FOUND", `no interrupted crawl is saved under report id ${id.slice(0, 60)} in ${dir} (a finished crawl removes it, and one untouched for a day is removed); run the audit again without --resume`);
      try {
        return resumeState(sqlite, path, id);
      } catch (err) {
        throw resumeError(err, id, path);
      }
    },
  };
}
