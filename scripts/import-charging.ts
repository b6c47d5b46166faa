/**
 * Regenerates fixtures/charging/sites.json from the real open data files.
 * Usage: node scripts/import-charging.ts [data-dir] [--out path] [--imported-at ISO]
 * (data-dir defaults to fixtures/charging/raw, the raw open data kept in the repository).
 * @module
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { nodeImportIo } from "../shim/node/charging/import-io.ts";
import { runImport } from "../src/charging/import/command.ts";

const repo = resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const dir =
  args[0] && !args[0].startsWith("--")
    ? resolve(args.shift() as string)
    : join(repo, "fixtures/charging/raw");
const wanted = /\.(json|geojson|jsonl|jsonl\.gz|json\.gz)$/;
const files = readdirSync(dir)
  .filter((name) => wanted.test(name))
  .sort()
  .map((name) => join(dir, name));
if (!args.includes("--out")) args.push("--out", join(repo, "fixtures/charging/sites.json"));

process.exitCode = await runImport([...files, ...args], nodeImportIo());
