/**
 * Packs the desktop extension: stages shim/mcpb/manifest.json with the built stdio server
 * (dist/seo.js and dist/seo-chunks/ under server/) and runs the MCPB CLI's `validate` and `pack`
 * on it. The bundle needs no npm install and no network: the server is one esbuild bundle.
 * Usage: node scripts/pack-mcpb.ts [--out <file>] [--no-build]
 *   --out       where the .mcpb goes (default: dist/seo-audit-mcp.mcpb); its path is printed on stdout
 *   --no-build  use dist/ as it is (default: rebuild the seo entry first)
 * @module
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { BUNDLE_ENTRY, BUNDLE_FILE } from "../src/seo/clients.ts";

// The package's `mcpb` bin (dist/cli/cli.js), found beside its main entry (dist/index.js).
const MCPB_CLI = join(dirname(createRequire(import.meta.url).resolve("@anthropic-ai/mcpb")), "cli/cli.js");

/** Runs the MCPB CLI; its report goes to stderr so stdout carries only the bundle's path. */
function mcpb(args: string[], cwd: string): void {
  execFileSync(process.execPath, [MCPB_CLI, ...args], { cwd, stdio: ["ignore", process.stderr, "inherit"] });
}

/** The bundle's tree: the manifest at the root, the server where the manifest's entry point says. */
function stage(dir: string): void {
  copyFileSync("shim/mcpb/manifest.json", join(dir, "manifest.json"));
  const server = join(dir, dirname(BUNDLE_ENTRY));
  mkdirSync(server, { recursive: true });
  copyFileSync("dist/seo.js", join(dir, BUNDLE_ENTRY));
  // The threads' entries, found beside the bin.
  for (const thread of ["seo-audit-thread.js", "seo-page-worker.js"]) copyFileSync(join("dist", thread), join(server, thread));
  cpSync("dist/seo-chunks", join(server, "seo-chunks"), { recursive: true });
  // The bundle is ESM; without this Node would first try the .js files as CommonJS.
  writeFileSync(join(server, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
}

function main(): void {
  const { values } = parseArgs({ options: { out: { type: "string" }, "no-build": { type: "boolean" } } });
  const out = resolve(values.out ?? join("dist", BUNDLE_FILE));
  if (!values["no-build"]) execFileSync(process.execPath, ["scripts/build.ts", "seo"], { stdio: "inherit" });
  const dir = mkdtempSync(join(tmpdir(), "seo-mcpb-"));
  try {
    stage(dir);
    // Run inside the staged tree: pack lists the archive's files relative to the working directory.
    mcpb(["validate", "manifest.json"], dir);
    mkdirSync(dirname(out), { recursive: true });
    mcpb(["pack", ".", out], dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${out}\n`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`pack-mcpb: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
