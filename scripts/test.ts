/**
 * The test tiers.
 *
 * `node scripts/test.ts` (`npm test`): build, the TypeScript suites with coverage (`npm run
 * test:ts`), then the Python suites (`npm run test:py`). Python runs even when the build or a
 * TypeScript test failed, so one run reports both; the exit code is 1 when either failed. The
 * last lines summarise both sides:
 *   typescript: 512 passed, 0 failed
 *   python: ok
 *
 * `node scripts/test.ts --quick` (`npm run test:quick`): the TypeScript unit tests only, without
 * coverage and without the build: every test file except the system tests listed in SYSTEM,
 * which start real browsers, workerd, Redis, built bundles or npm.
 * @module
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Test files that drive a whole program rather than a unit: built bundles spawned as processes,
 * a real Chromium, workerd (miniflare), redis-server, npm pack and install, the desktop-extension
 * and Claude Code CLIs. `npm test` runs them; `npm run test:quick` leaves them out.
 */
export const SYSTEM = [
  "tests/charging/transports/cli/cli.test.ts",
  "tests/charging/transports/http/fuzz.test.ts",
  "tests/charging/transports/http/integrators.test.ts",
  "tests/charging/transports/http/mcp.test.ts",
  "tests/charging/transports/http/server-guards.test.ts",
  "tests/packages/release.test.ts",
  "tests/packages/tarballs.test.ts",
  "tests/seo/audit/defaults.test.ts",
  "tests/seo/clients.test.ts",
  "tests/seo/render/render.test.ts",
  "tests/seo/report-html/report-html.test.ts",
  "tests/seo/tools/page-report.test.ts",
  "tests/shared/workerd.test.ts",
  "tests/shim/browser/charging/map.test.ts",
  "tests/shim/claude-plugin/skills/seo-check/skill.test.ts",
  "tests/shim/mcpb/manifest.test.ts",
  "tests/shim/node/charging/cli.test.ts",
  "tests/shim/node/charging/server-contract.test.ts",
  "tests/shim/node/charging/server.test.ts",
  "tests/shim/node/redis-rate-store.test.ts",
  "tests/shim/node/seo/audit.test.ts",
  "tests/shim/node/seo/bin-startup.test.ts",
  "tests/shim/node/seo/bin.test.ts",
  "tests/shim/node/seo/gateway.test.ts",
  "tests/shim/node/seo/page-parser.test.ts",
  "tests/shim/node/seo/stdio-bridge.test.ts",
  "tests/shim/node/seo/stdio-portability.test.ts",
  "tests/shim/node/seo/stdio-tasks.test.ts",
  "tests/shim/node/seo/stdio.test.ts",
  "tests/shim/workers/charging-worker.test.ts",
  "tests/shim/workers/seo-gateway.test.ts",
];

/** The quick tier's files: every test file but the system tests (a listed file that is gone is an error). */
export function quickFiles(all: string[], system: string[] = SYSTEM): string[] {
  const gone = system.filter((file) => !all.includes(file));
  if (gone.length > 0) throw new Error(`scripts/test.ts lists system tests that do not exist: ${gone.join(", ")}`);
  return all.filter((file) => !system.includes(file)).sort();
}

export interface Counts {
  passed: number;
  failed: number;
}

/** The totals node:test printed last (TAP `# pass 3`, spec `ℹ pass 3`); cancelled tests count as failed. */
export function countsOf(output: string): Counts | undefined {
  const last = (name: string) => {
    const all = [...output.matchAll(new RegExp(`^(?:#|ℹ) ${name} (\\d+)$`, "gm"))];
    const hit = all.at(-1);
    return hit ? Number(hit[1]) : undefined;
  };
  const [passed, failed, cancelled] = [last("pass"), last("fail"), last("cancelled")];
  if (passed === undefined || failed === undefined) return undefined;
  return { passed, failed: failed + (cancelled ?? 0) };
}

/** The summary line of a TypeScript run from its exit code and output. */
export function typescriptLine(label: string, code: number, output: string): string {
  const counts = countsOf(output);
  if (!counts) return `${label}: no test totals (exit ${code})`;
  const line = `${label}: ${counts.passed} passed, ${counts.failed} failed`;
  if (code === 0 || counts.failed > 0) return line;
  const coverage = /ERROR: Coverage for (\w+) \(([\d.]+)%\) does not meet global threshold \(([\d.]+)%\)/.exec(output);
  return coverage ? `${line}; coverage of ${coverage[1]} ${coverage[2]} % is under ${coverage[3]} %` : `${line}; exit ${code}`;
}

/** Runs a command with the terminal's input; its output is shown (unless `echo` is false) and, when `keep`, also returned. */
export function run(command: string, args: string[], keep = false, echo = true): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["inherit", keep ? "pipe" : "inherit", keep ? "pipe" : "inherit"] });
    const chunks: string[] = [];
    child.stdout?.on("data", (chunk: Buffer) => {
      if (echo) process.stdout.write(chunk);
      chunks.push(chunk.toString("utf8"));
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      if (echo) process.stderr.write(chunk);
      chunks.push(chunk.toString("utf8"));
    });
    child.on("error", (err) => resolve({ code: 127, output: `${command}: ${err.message}` }));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: chunks.join("") }));
  });
}

/** A step of the full run: the command, and how its result reads in the summary. */
export interface Step {
  name: string;
  command: [string, ...string[]];
  /** Output kept for the summary (the TypeScript totals). */
  keep?: boolean;
  line(code: number, output: string): string;
}

export const FULL: Step[] = [
  { name: "build", command: ["npm", "run", "--silent", "build"], line: (code) => `build: ${code === 0 ? "ok" : "failed"}` },
  { name: "typescript", command: ["npm", "run", "--silent", "test:ts"], keep: true, line: (code, out) => typescriptLine("typescript", code, out) },
  { name: "python", command: ["npm", "run", "--silent", "test:py"], line: (code) => `python: ${code === 0 ? "ok" : `failed (exit ${code})`}` },
];

/**
 * Runs every step whatever the ones before it gave, except that the TypeScript tests need the
 * build; returns the summary lines and whether all passed.
 */
export async function runSteps(steps: Step[], runner = run): Promise<{ ok: boolean; lines: string[] }> {
  const lines: string[] = [];
  let ok = true;
  let built = true;
  for (const step of steps) {
    if (step.name === "typescript" && !built) {
      lines.push("typescript: not run (the build failed)");
      continue;
    }
    const [command, ...args] = step.command;
    const { code, output } = await runner(command, args, step.keep ?? false);
    if (step.name === "build") built = code === 0;
    ok &&= code === 0;
    // A passing build is not worth a summary line; a failing one is.
    if (step.name !== "build" || code !== 0) lines.push(step.line(code, output));
  }
  return { ok, lines };
}

async function main(): Promise<void> {
  if (process.argv.includes("--quick")) {
    const all = readdirSync("tests", { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".test.ts"));
    const files = quickFiles(all.map((f) => join("tests", f).replaceAll("\\", "/")));
    const { code, output } = await run(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", ...files], true);
    process.stdout.write(`\n${typescriptLine(`typescript (quick, ${files.length} files)`, code, output)}\n`);
    process.exitCode = code === 0 ? 0 : 1;
    return;
  }
  const { ok, lines } = await runSteps(FULL);
  process.stdout.write(`\n${lines.join("\n")}\n`);
  process.exitCode = ok ? 0 : 1;
}

// Run as a script, not when a test imports the functions above.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
