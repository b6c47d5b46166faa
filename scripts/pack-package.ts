/**
 * Stages one npm package's files (its `prepack` script runs this; `npm run pack:npm` packs both):
 * builds the package's esbuild entries into packages/<name>/dist/ (not the repository's dist/,
 * which running servers and tests read), bundles its library's declarations into one .d.ts,
 * then checks what package.json promises: every bin starts with `#!/usr/bin/env node` and is
 * executable, and every file that `bin`, `exports` and `files` name exists.
 * Usage: node scripts/pack-package.ts <seo-audit-mcp | charging-sites>
 * @module
 */
import { execFileSync } from "node:child_process";
import { chmodSync, closeSync, existsSync, openSync, readFileSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";
import { rollup } from "rollup";
import { dts } from "rollup-plugin-dts";

interface PackageBuild {
  /** scripts/build.ts entries that make the package's bins and library. */
  entries: string[];
  /** The library entry's source, and where its bundled declarations go (under dist/). */
  library: { source: string; types: string };
}

const PACKAGES: Record<string, PackageBuild> = {
  "seo-audit-mcp": { entries: ["seo"], library: { source: "packages/seo-audit-mcp/mod.ts", types: "seo-lib.d.ts" } },
  "charging-sites": {
    entries: ["charging-cli"],
    library: { source: "packages/charging-sites/mod.ts", types: "charging-lib.d.ts" },
  },
};

/**
 * Third-party packages whose types the public declarations name (the data models are valibot
 * schemas' outputs; the store holds a KDBush index): their declarations are copied in, so an
 * installed package, which has no dependencies, type-checks on its own. Any other package a
 * declaration still names fails the staging.
 */
const INLINED_TYPES = ["valibot", "kdbush"];

const SHEBANG = "#!/usr/bin/env node\n";

interface Manifest {
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  files?: string[];
}

const bare = (id: string) => !id.startsWith(".") && !id.startsWith("/");

async function bundleDeclarations(source: string, outFile: string): Promise<void> {
  const bundle = await rollup({
    input: source,
    external: (id) => bare(id) && !INLINED_TYPES.includes(id),
    plugins: [dts({ respectExternal: true, tsconfig: "tsconfig.json" })],
    onwarn: (warning) => process.stderr.write(`pack-package: ${warning.message}\n`),
  });
  try {
    await bundle.write({ file: outFile, format: "es" });
  } finally {
    await bundle.close();
  }
  // import/export … from "x", import "x", and type positions' import("x").
  const specifier = /(?:\bfrom\s+|^import\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/gm;
  const named = [...readFileSync(outFile, "utf8").matchAll(specifier)].map((m) => m[1] ?? "");
  const leaked = [...new Set(named.filter(bare))];
  if (leaked.length > 0) {
    throw new Error(
      `${outFile} names ${leaked.join(", ")}, which the installed package does not have; add them to INLINED_TYPES or keep their types out of the library entry`,
    );
  }
}

function startsWithShebang(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(SHEBANG.length);
    readSync(fd, head, 0, head.length, 0);
    return head.toString("utf8") === SHEBANG;
  } finally {
    closeSync(fd);
  }
}

/** Every path the manifest names exists; bins start with the shebang and become executable. */
function checkManifest(dir: string, manifest: Manifest): void {
  for (const [name, target] of Object.entries(manifest.bin ?? {})) {
    const path = join(dir, target);
    if (!existsSync(path)) throw new Error(`bin ${name}: ${path} was not built`);
    if (!startsWithShebang(path)) throw new Error(`bin ${name}: ${path} does not start with ${SHEBANG.trim()}`);
    chmodSync(path, 0o755);
  }
  const exported = Object.values(manifest.exports ?? {}).flatMap((e) => (typeof e === "string" ? [e] : Object.values(e)));
  for (const path of [...exported, ...(manifest.files ?? [])].map((p) => join(dir, p))) {
    if (!existsSync(path)) throw new Error(`${path} is named in package.json but was not built`);
  }
}

async function stage(name: string): Promise<void> {
  const build = PACKAGES[name];
  if (!build) throw new Error(`unknown package ${name}; known: ${Object.keys(PACKAGES).join(", ")}`);
  const dir = join("packages", name);
  const dist = join(dir, "dist");
  rmSync(dist, { recursive: true, force: true });
  execFileSync(process.execPath, ["scripts/build.ts", "--outdir", dist, ...build.entries], { stdio: "inherit" });
  const started = performance.now();
  await bundleDeclarations(build.library.source, join(dist, build.library.types));
  process.stderr.write(`pack-package: ${join(dist, build.library.types)} in ${Math.round(performance.now() - started)} ms\n`);
  checkManifest(dir, JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest);
}

// npm runs prepack in the package's folder; everything here is relative to the repository.
process.chdir(join(import.meta.dirname, ".."));
try {
  await stage(process.argv[2] ?? "");
} catch (err) {
  process.stderr.write(`pack-package: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
