/**
 * Bundles every runtime entry with esbuild into dist/ (package.json, with the stage marker, is inlined).
 * Usage: node scripts/build.ts [--outdir DIR] [entry-name ...]   (default: all entries, into dist/)
 *   --outdir  write the outputs under DIR instead of dist/ (scripts/pack-package.ts builds a
 *             package's files into its own folder, so packing never rewrites files a running
 *             server or test is reading from dist/)
 * @module
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { parseArgs } from "node:util";
import { crc32 } from "node:zlib";
import { build, type BuildOptions, type Plugin } from "esbuild";
import { parseDatasetFile } from "../src/charging/data/dataset.ts";
import { snapshotOf } from "../src/charging/snapshot/write.ts";
import { bundleMapAssets } from "./map-assets.ts";

interface Entry {
  name: string;
  source: string;
  outfile: string;
  platform: "node" | "neutral" | "browser";
  /** Package export conditions to prefer (the Workers runtime's own first). */
  conditions?: string[];
  /** Code behind dynamic import() goes to chunks in this folder (next to outfile); stale ones are removed. */
  chunkDir?: string;
  /**
   * A package's library entry, bundled in the same build so it shares the bin's chunks (needs
   * chunkDir): its source and its output name next to outfile (`<out>.js`).
   */
  library?: { source: string; out: string };
  /** Worker threads' entries, bundled in the same build (needs chunkDir): `<out>.js` beside outfile. */
  workers?: { source: string; out: string }[];
  /** Embeds the SEO tools/list answer (SEO_TOOL_LISTING), so start-up does not load the tools. */
  seoListing?: boolean;
  /** Node-only packages deps.ts re-exports (ioredis) become stubs: the entry never uses them. */
  stubNodeOnly?: boolean;
}

export const ENTRIES: Entry[] = [
  { name: "charging", source: "shim/node/charging/server.ts", outfile: "dist/charging.js", platform: "node" },
  // The charging-sites package's bin and library share chunks (the embedded data among them).
  {
    name: "charging-cli",
    source: "shim/node/charging/cli.ts",
    outfile: "dist/charging-cli.js",
    platform: "node",
    chunkDir: "charging-chunks",
    library: { source: "packages/charging-sites/mod.ts", out: "charging-lib" },
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
  // command (and the tools, on first call) loads only its own chunks. The seo-audit-mcp
  // package's library shares them.
  {
    name: "seo",
    source: "shim/node/seo/bin.ts",
    outfile: "dist/seo.js",
    platform: "node",
    chunkDir: "seo-chunks",
    library: { source: "packages/seo-audit-mcp/mod.ts", out: "seo-lib" },
    workers: [
      { source: "shim/node/seo/audit-thread.ts", out: "seo-audit-thread" },
      { source: "shim/node/seo/page-worker.ts", out: "seo-page-worker" },
    ],
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
const SNAPSHOT_FILE = "charging-snapshot.bin";
let snapshot: Uint8Array | undefined;

function embeddedSnapshotBytes(): Uint8Array {
  if (snapshot) return snapshot;
  const { header, sites } = parseDatasetFile(JSON.parse(readFileSync("fixtures/charging/sites.json", "utf8")));
  snapshot = snapshotOf(sites, header, { crc32: (b) => crc32(b) });
  return snapshot;
}

// The bytes come from memory, not a file: builds running at once (tests, packing) share no
// file, and the output names no temporary path, so it is the same from build to build.
const embeddedSnapshot: Plugin = {
  name: "embedded-charging-snapshot",
  setup(b) {
    b.onLoad({ filter: EMBEDDED_MODULE }, () => ({
      contents: `import bytes from "${SNAPSHOT_FILE}";\nexport const embeddedSnapshot = () => bytes;\n`,
      loader: "ts",
    }));
    b.onResolve({ filter: new RegExp(`^${SNAPSHOT_FILE}$`) }, (args) => ({ path: args.path, namespace: "embedded" }));
    b.onLoad({ filter: /.*/, namespace: "embedded" }, () => ({ contents: embeddedSnapshotBytes(), loader: "binary" }));
  },
};

/**
 * The map page's files (scripts/map-assets.ts) are bundled once per build and embedded as
 * `shim/embedded/charging-map.ts` (which bundles them on first use when run from source).
 */
const MAP_MODULE = /shim[\\/]embedded[\\/]charging-map\.ts$/;
let mapModule: string | undefined;

const embeddedMap: Plugin = {
  name: "embedded-charging-map",
  setup(b) {
    b.onLoad({ filter: MAP_MODULE }, () => {
      mapModule ??= `const assets = ${JSON.stringify(bundleMapAssets())};\nexport const mapAssets = () => assets;\n`;
      return { contents: mapModule, loader: "js" };
    });
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

const { values: flags, positionals: wanted } = parseArgs({ options: { outdir: { type: "string" } }, allowPositionals: true });
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
    plugins: entry.stubNodeOnly ? [embeddedSnapshot, embeddedMap, nodeOnlyStubs] : [embeddedSnapshot, embeddedMap],
    loader: { ".bin": "binary" },
  };
}

/** The entry with its outputs under `outdir` instead of dist/. */
function placed(entry: Entry, outdir: string | undefined): Entry {
  return outdir ? { ...entry, outfile: join(outdir, relative("dist", entry.outfile)) } : entry;
}

async function buildSplit(entry: Entry & { chunkDir: string }, options: BuildOptions): Promise<void> {
  const outdir = dirname(entry.outfile);
  const entryPoints = [{ in: entry.source, out: basename(entry.outfile, ".js") }];
  if (entry.library) entryPoints.push({ in: entry.library.source, out: entry.library.out });
  for (const worker of entry.workers ?? []) entryPoints.push({ in: worker.source, out: worker.out });
  const result = await build({
    ...options,
    entryPoints,
    outdir,
    splitting: true,
    chunkNames: `${entry.chunkDir}/[name]-[hash]`,
    metafile: true,
  });
  pruneChunks(join(outdir, entry.chunkDir), Object.keys(result.metafile?.outputs ?? {}));
}

for (const wantedEntry of chosen) {
  const entry = placed(wantedEntry, flags.outdir);
  if (!existsSync(entry.source)) {
    process.stderr.write(`build: ${entry.name} has no source yet (${entry.source}), skipped\n`);
    continue;
  }
  const started = performance.now();
  const options = optionsFor(entry, listing);
  if (entry.chunkDir) await buildSplit({ ...entry, chunkDir: entry.chunkDir }, options);
  else await build({ ...options, entryPoints: [entry.source], outfile: entry.outfile });
  process.stderr.write(`build: ${entry.outfile} in ${Math.round(performance.now() - started)} ms\n`);
}
