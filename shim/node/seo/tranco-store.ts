/**
 * Tranco answers kept on disk between server runs (one JSON file, dated entries, bounded), so
 * repeated authority checks neither wait on nor load the keyless API.
 * @module
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RankStore, TrancoRank } from "../../../src/seo/mod.ts";

const MAX_ENTRIES = 5000;
type Entries = Record<string, { value: TrancoRank; savedAt: string }>;

export function fileRankStore(dir: string): RankStore {
  const file = join(dir, "tranco-ranks.json");
  let entries: Promise<Entries> | undefined;
  const load = () => {
    entries ??= readFile(file, "utf8")
      .then((text) => JSON.parse(text) as Entries)
      .catch(() => ({}));
    return entries;
  };
  return {
    async get(domain) {
      return (await load())[domain];
    },
    async set(domain, value, savedAt) {
      const all = await load();
      delete all[domain];
      all[domain] = { value, savedAt };
      const keys = Object.keys(all);
      for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete all[old];
      await mkdir(dir, { recursive: true });
      // Write then rename, so a crash never leaves half a file.
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify(all));
      await rename(temp, file);
    },
  };
}
