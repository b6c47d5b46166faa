/**
 * Bundles every runtime entry with esbuild into dist/ (package.json, with the stage marker, is inlined).
 * Usage: node scripts/build.ts [entry-name ...]   (default: all entries)
 * @module
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { crc32 } from "node:zlib";
import { build, type BuildOptions, type Plugin } from "esbuild";
import { parseDatasetFile } from "../src/charging/dataset.ts";
import { snapshotOf } from "../src/charging/snapshot/write.ts";

interface Entry {
  name: string;
  source: string;
  outfile: string;
  platform: "node" | "neutral" | "browser";
  /** Package export conditions to prefer (the Workers runtime's own first). */
  conditions?: string[];
  /** Code behind dynamic import() goes to chunks in this folder (next to outfile); stale ones are removed. */
  chunkDir?: string;
  /** Embeds the SEO tools/list answer (SEO_TOOL_LISTING), so start-up does not load the tools. */
  seoListing?: boolean;
  /** Node-only packages deps.ts re-exports (ioredis) become stubs: the entry never uses them. */
  stubNodeOnly?: boolean;
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
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    stubNodeOnly: true,
  },
  // Split so the tiny entry can enable the compile cache before the bulk is compiled, and each
  // command (and the tools, on first call) loads only its own chunks.
  {
    name: "seo",
    source: "shim/node/seo-cli.ts",
    outfile: "dist/seo.js",
    platform: "node",
    chunkDir: "seo-chunks",
    seoListing: true,
  },
  // The Workers gateway: one ES module for workerd, web APIs only (a test checks for node: imports).
  {
    name: "seo-gateway",
    source: "shim/workers/seo-gateway.ts",
    outfile: "dist/seo-gateway.js",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    seoListing: true,
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

/** Node's own modules become stubs in the charging worker (nothing there uses them). */
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

/** The SEO tools/list answer, from the same tool definitions and listing code the server runs. */
async function seoToolListing(): Promise<string> {
  const [{ createSeoTools }, { listSeoTool }, { loadConfig }] = await Promise.all([
    import("../src/seo/tools/mod.ts"),
    import("../src/seo/mcp-info.ts"),
    import("../src/seo/config.ts"),
  ]);
  const unused = () => Promise.reject(new Error("not called while listing"));
  const tools = createSeoTools({
    provider: { fetch: unused, now: () => new Date(0), sleep: unused },
    config: loadConfig({ env: {} }),
    log: () => {},
  });
  return JSON.stringify(tools.map(listSeoTool));
}

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

const listing = chosen.some((e) => e.seoListing) ? await seoToolListing() : undefined;

function optionsFor(entry: Entry, listing: string | undefined): BuildOptions {
  return {
    bundle: true,
    format: "esm",
    platform: entry.platform,
    ...(entry.conditions ? { conditions: entry.conditions } : {}),
    ...(entry.seoListing && listing ? { define: { SEO_TOOL_LISTING: listing } } : {}),
    target: entry.platform === "node" ? "node22" : "es2022",
    minifySyntax: true,
    legalComments: "none",
    banner: entry.platform === "node" ? { js: requireBanner } : undefined,
    logLevel: "warning",
    plugins: entry.stubNodeOnly ? [embeddedSnapshot, nodeOnlyStubs] : [embeddedSnapshot],
    loader: { ".bin": "binary" },
  };
}

for (const entry of chosen) {
  if (!existsSync(entry.source)) {
    process.stderr.write(`build: ${entry.name} has no source yet (${entry.source}), skipped\n`);
    continue;
  }
  const started = performance.now();
  const options = optionsFor(entry, listing);
  if (entry.chunkDir) {
    const outdir = dirname(entry.outfile);
    const result = await build({
      ...options,
      entryPoints: [{ in: entry.source, out: basename(entry.outfile, ".js") }],
      outdir,
      splitting: true,
      chunkNames: `${entry.chunkDir}/[name]-[hash]`,
      metafile: true,
    });
    pruneChunks(join(outdir, entry.chunkDir), Object.keys(result.metafile?.outputs ?? {}));
  } else {
    await build({ ...options, entryPoints: [entry.source], outfile: entry.outfile });
  }
  process.stderr.write(`build: ${entry.outfile} in ${Math.round(performance.now() - started)} ms\n`);
}
