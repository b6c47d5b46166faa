/**
 * File-backed report store: one JSON file per audit in a folder (the commands use `reports`
 * under `cacheDir()`), the newest 50 kept.
 * @module
 */
import { mkdir, open, readdir, readFile, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { type AuditReport, newReportId, REPORT_ID, type ReportStore, SEO_SERVER_NAME } from "../../../src/seo/commands.ts";

/** `SEO_CACHE_DIR`, else `$XDG_CACHE_HOME/seo-audit-mcp` (or `~/.cache/...`): reports and Tranco answers live under it. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SEO_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), SEO_SERVER_NAME);
}

/** Arrays and objects this deep are written a member at a time; deeper values whole. */
const STREAM_DEPTH = 3;
/** Pieces are gathered into writes of about this many characters. */
const WRITE_CHARS = 64 * 1024;

/**
 * The JSON text of `value` (as `JSON.stringify` writes it), a member at a time down to
 * `depth`: a finding's 10,000 examples or a report's 10,000 page rows are never one string.
 */
function* jsonPieces(value: unknown, depth = STREAM_DEPTH): Generator<string> {
  if (depth === 0 || value === null || typeof value !== "object" || "toJSON" in value) {
    yield JSON.stringify(value) ?? "null";
  } else if (Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ",";
      yield* jsonPieces(value[i] ?? null, depth - 1);
    }
    yield "]";
  } else {
    let first = true;
    for (const [key, field] of Object.entries(value)) {
      if (field === undefined || typeof field === "function" || typeof field === "symbol") continue;
      yield `${first ? "{" : ","}${JSON.stringify(key)}:`;
      first = false;
      yield* jsonPieces(field, depth - 1);
    }
    yield first ? "{}" : "}";
  }
}

/** `pieces` joined into strings of about `size` characters. */
function* gathered(pieces: Iterable<string>, size = WRITE_CHARS): Generator<string> {
  let batch: string[] = [];
  let chars = 0;
  for (const piece of pieces) {
    batch.push(piece);
    chars += piece.length;
    if (chars < size) continue;
    yield batch.join("");
    batch = [];
    chars = 0;
  }
  if (batch.length > 0) yield batch.join("");
}

/**
 * Writes `value` as JSON without holding its whole text: a 10,000-page report is megabytes of
 * it, and as one string (plus its bytes) it was the peak of a crawl's memory.
 */
async function writeJson(path: string, value: Record<string, unknown>): Promise<void> {
  const file = await open(path, "w");
  try {
    for (const piece of gathered(jsonPieces(value))) await file.write(piece);
  } finally {
    await file.close();
  }
}

export function fileReportStore(dir: string, limit = 50): ReportStore {
  // The order this store saved its files in: a file system's write times can tie (a coarse
  // clock tick), and the random part of an id says nothing about which report came last.
  const savedOrder = new Map<string, number>();
  let saves = 0;
  return {
    async save(report, given) {
      await mkdir(dir, { recursive: true });
      const id = given ?? newReportId(new Date());
      await writeJson(join(dir, `${id}.json`), { ...report, id });
      savedOrder.set(`${id}.json`, ++saves);
      // Ids order by second only, so the oldest are found by write time; the report just saved is never pruned.
      const others = (await readdir(dir)).filter(
        (f) => f !== `${id}.json` && REPORT_ID.test(f.replace(/\.json$/, "")),
      );
      const aged = await Promise.all(
        others.map(async (name) => ({ name, at: await stat(join(dir, name)).then((s) => s.mtimeMs, () => 0) })),
      );
      const order = (name: string) => savedOrder.get(name) ?? 0;
      aged.sort((a, b) => a.at - b.at || order(a.name) - order(b.name) || a.name.localeCompare(b.name));
      for (const old of aged.slice(0, Math.max(0, aged.length + 1 - limit))) {
        await rm(join(dir, old.name), { force: true });
        savedOrder.delete(old.name);
      }
      return id;
    },
    async load(id) {
      if (!REPORT_ID.test(id)) return undefined; // ids are file names: never let one escape the directory
      try {
        return JSON.parse(await readFile(join(dir, `${id}.json`), "utf8")) as AuditReport;
      } catch {
        return undefined;
      }
    },
  };
}
