/**
 * Bundles every runtime entry with esbuild into dist/ (package.json, with the stage marker, is inlined).
 * Usage: node scripts/build.ts [entry-name ...]   (default: all entries)
 * @module
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { crc32 } from "node:zlib";
import { build, type Plugin } from "esbuild";
import { parseDatasetFile } from "../src/charging/dataset.ts";
import { snapshotOf } from "../src/charging/snapshot/write.ts";

interface Entry {
  name: string;
  source: string;
  outfile: string;
  platform: "node" | "neutral";
  /** Code behind dynamic import() goes to chunks in this folder (next to outfile); stale ones are removed. */
  chunkDir?: string;
}

export const ENTRIES: Entry[] = [
  { name: "charging", source: "shim/node/charging-server.ts", outfile: "dist/charging.js", platform: "node" },
  {
    name: "charging-cli",
    source: "shim/node/charging-cli.ts",
    outfile: "dist/charging-cli.js",
    platform: "node",
  },
  // The Workers build of the charging handler (tests run it in workerd through miniflare).
  {
    name: "charging-worker",
    source: "shim/workers/charging-worker.ts",
    outfile: "dist/charging-worker.js",
    platform: "neutral",
  },
  // Split so the tiny entry can enable the compile cache before the bulk is compiled.
  {
    name: "seo",
    source: "shim/node/seo-cli.ts",
    outfile: "dist/seo.js",
    platform: "node",
    chunkDir: "seo-chunks",
  },
];

/**
 * The embedded charging data goes into bundles as a snapshot converted here, once per build:
 * `shim/embedded/charging-snapshot.ts` (which converts the JSON at start-up when run from
 * source) is replaced by the prebuilt bytes, so a built server parses no JSON at all.
 */
const EMBEDDED_MODULE = /shim[\\/]embedded[\\/]charging-snapshot\.ts$/;
let snapshotFile: string | undefined;

function embeddedSnapshotFile(): string {
  if (snapshotFile) return snapshotFile;
  const { header, sites } = parseDatasetFile(JSON.parse(readFileSync("fixtures/charging/sites.json", "utf8")));
  mkdirSync("dist/.build", { recursive: true });
  snapshotFile = resolve("dist/.build/charging-snapshot.bin");
  writeFileSync(snapshotFile, snapshotOf(sites, header, { crc32: (b) => crc32(b) }));
  return snapshotFile;
}

const embeddedSnapshot: Plugin = {
  name: "embedded-charging-snapshot",
  setup(b) {
    b.onLoad({ filter: EMBEDDED_MODULE }, () => ({
      contents: `import bytes from ${JSON.stringify(embeddedSnapshotFile())};\nexport const embeddedSnapshot = () => bytes;\n`,
      loader: "ts",
      resolveDir: process.cwd(),
    }));
  },
};

/**
 * deps.ts re-exports the SDK's stdio transport (node:process), which Workers code never uses.
 * A neutral bundle must still resolve it: Node's modules become stubs, so nothing Node-only is
 * loaded, and a use of one would fail loudly.
 */
const nodeOnlyStubs: Plugin = {
  name: "node-only-stubs",
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: "node-only" }));
    b.onLoad({ filter: /.*/, namespace: "node-only" }, (args) => ({
      contents: `module.exports = new Proxy({}, { get(_, name) { if (name === "__esModule") return false; throw new Error("Node-only module ${args.path} used in a Workers bundle (" + String(name) + ")"); } });`,
      loader: "js",
    }));
  },
};

// Bundled CommonJS dependencies (ajv via the MCP SDK) call require() at run time.
const requireBanner =
  'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);';

// Old chunks go after the new ones are written, so a server starting meanwhile finds its files.
function pruneChunks(dir: string, outputs: string[]): void {
  const keep = new Set(outputs.map((o) => basename(o)));
  for (const name of readdirSync(dir)) if (!keep.has(name)) rmSync(join(dir, name), { force: true });
}

const wanted = process.argv.slice(2);
const chosen = wanted.length > 0 ? ENTRIES.filter((e) => wanted.includes(e.name)) : ENTRIES;
if (wanted.length > 0 && chosen.length !== wanted.length) {
  process.stderr.write(
    `build: unknown entry in ${wanted.join(", ")}; known: ${ENTRIES.map((e) => e.name).join(", ")}\n`,
  );
  process.exit(2);
}

for (const entry of chosen) {
  if (!existsSync(entry.source)) {
    process.stderr.write(`build: ${entry.name} has no source yet (${entry.source}), skipped\n`);
    continue;
  }
  const started = performance.now();
  const outdir = dirname(entry.outfile);
  const result = await build({
    ...(entry.chunkDir
      ? {
          entryPoints: [{ in: entry.source, out: basename(entry.outfile, ".js") }],
          outdir,
          splitting: true,
          chunkNames: `${entry.chunkDir}/[name]-[hash]`,
        }
      : { entryPoints: [entry.source], outfile: entry.outfile }),
    bundle: true,
    format: "esm",
    platform: entry.platform,
    target: "node22",
    minifySyntax: true,
    legalComments: "none",
    banner: entry.platform === "node" ? { js: requireBanner } : undefined,
    // Neutral bundles (Workers) resolve packages as bundlers for the web do.
    ...(entry.platform === "neutral" ? { mainFields: ["module", "main"], conditions: ["workerd", "worker", "browser"] } : {}),
    logLevel: "warning",
    metafile: Boolean(entry.chunkDir),
    plugins: entry.platform === "neutral" ? [embeddedSnapshot, nodeOnlyStubs] : [embeddedSnapshot],
    loader: { ".bin": "binary" },
  });
  if (entry.chunkDir) pruneChunks(join(outdir, entry.chunkDir), Object.keys(result.metafile?.outputs ?? {}));
  process.stderr.write(`build: ${entry.outfile} in ${Math.round(performance.now() - started)} ms\n`);
}
