/**
 * File-backed report store: one JSON file per audit under
 * `$XDG_CACHE_HOME/seo-audit-mcp/reports` (or `~/.cache/...`), the newest 50 kept.
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

export function defaultReportDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "seo-audit-mcp", "reports");
}

/** Array fields are written this many items at a time. */
const BATCH = 256;

/** The JSON text of `value`, a piece at a time: array fields in batches, other fields whole. */
function* jsonPieces(value: Record<string, unknown>): Generator<string> {
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    const head = `${first ? "{" : ","}${JSON.stringify(key)}:`;
    first = false;
    if (!Array.isArray(field)) {
      yield head + JSON.stringify(field);
      continue;
    }
    yield `${head}[`;
    for (let at = 0; at < field.length; at += BATCH)
      yield (at === 0 ? "" : ",") + JSON.stringify(field.slice(at, at + BATCH)).slice(1, -1);
    yield "]";
  }
  yield first ? "{}" : "}";
}

/**
 * Writes `value` as JSON without holding its whole text: a 10,000-page report is megabytes of
 * it, and as one string (plus its bytes) it was the peak of a crawl's memory.
 */
async function writeJson(path: string, value: Record<string, unknown>): Promise<void> {
  const file = await open(path, "w");
  try {
    for (const piece of jsonPieces(value)) await file.write(piece);
  } finally {
    await file.close();
  }
}

export function fileReportStore(dir = defaultReportDir(), limit = 50): ReportStore {
  return {
    async save(report) {
      await mkdir(dir, { recursive: true });
      const id = newReportId(new Date());
      await writeJson(join(dir, `${id}.json`), { ...report, id });
      // Ids order by second only, so the oldest are found by write time; the report just saved is never pruned.
      const others = (await readdir(dir)).filter(
        (f) => f !== `${id}.json` && REPORT_ID.test(f.replace(/\.json$/, "")),
      );
      const aged = await Promise.all(
        others.map(async (name) => ({ name, at: await stat(join(dir, name)).then((s) => s.mtimeMs, () => 0) })),
      );
      aged.sort((a, b) => a.at - b.at || a.name.localeCompare(b.name));
      for (const old of aged.slice(0, Math.max(0, aged.length + 1 - limit)))
        await rm(join(dir, old.name), { force: true });
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
