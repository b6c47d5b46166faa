/**
 * Cold start of the SEO stdio server: spawn -> `initialize` answered -> `tools/list` answered,
 * timed by the SDK's own Client over StdioClientTransport (1 warm-up + N runs, each a fresh
 * process), against same-run baselines: a minimal SDK server with one tool bundled the same way,
 * and `node -e 0` (bare process start). Subjects run in rounds, so machine load hits all alike.
 * Prints median/min/max, ratios and the target (within 1.10x of the one-tool server).
 * Usage: node scripts/bench-seo-coldstart.ts [runs=10] [--no-build]
 * @module
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { build } from "esbuild";

export interface ColdStart {
  /** spawn -> tools/list answered, per counted run (ms). */
  runs: number[];
  /** spawn -> initialize answered, per counted run (ms). */
  initialize: number[];
  tools: number;
  median: number;
  min: number;
  max: number;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

async function once(command: string, args: string[], env?: Record<string, string>) {
  const transport = new StdioClientTransport({ command, args, stderr: "ignore", ...(env ? { env } : {}) });
  const client = new Client({ name: "bench-coldstart", version: "1" });
  const started = performance.now();
  await client.connect(transport);
  const initialized = performance.now() - started;
  const { tools } = await client.listTools();
  const listed = performance.now() - started;
  await client.close();
  return { initialized, listed, tools: tools.length };
}

type Env = Record<string, string> | ((run: number) => Record<string, string>);
const envOf = (env: Env | undefined, run: number) => (typeof env === "function" ? env(run) : env);

function summarise(results: { initialized: number; listed: number; tools: number }[]): ColdStart {
  const listed = results.map((r) => r.listed);
  return {
    runs: listed,
    initialize: results.map((r) => r.initialized),
    tools: results[0]?.tools ?? 0,
    median: median(listed),
    min: Math.min(...listed),
    max: Math.max(...listed),
  };
}

/** Measures spawn -> tools/list of a stdio MCP server: `warmup` uncounted runs, then `runs`. */
export async function measureColdStart(
  command: string,
  args: string[],
  options: { runs?: number; warmup?: number; env?: Env } = {},
): Promise<ColdStart> {
  const { runs = 10, warmup = 1 } = options;
  for (let i = 0; i < warmup; i++) await once(command, args, envOf(options.env, -1 - i));
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once(command, args, envOf(options.env, i)));
  return summarise(results);
}

interface Subject {
  name: string;
  command: string;
  args: string[];
  env?: Env;
}

/** Runs the subjects in rounds (one run of each per round), so machine load hits all alike. */
async function interleaved(subjects: Subject[], runs: number): Promise<ColdStart[]> {
  const results: { initialized: number; listed: number; tools: number }[][] = subjects.map(() => []);
  for (let round = -1; round < runs; round++) {
    for (const [i, s] of subjects.entries()) {
      const r = await once(s.command, s.args, envOf(s.env, round));
      if (round >= 0) results[i]?.push(r);
    }
    if (round >= 0) process.stderr.write(`\rround ${round + 1}/${runs}`);
  }
  process.stderr.write("\n");
  return results.map(summarise);
}

const RAW_MESSAGES = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
].map((m) => `${JSON.stringify(m)}\n`);

/**
 * Spawn -> tools/list answer seen on stdout, with a bare JSON-RPC writer instead of the SDK
 * client: the server's own share, without the client's validation of the tool schemas.
 */
function rawOnce(command: string, args: string[], env?: Record<string, string>): Promise<number> {
  return new Promise((resolveRun, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"], ...(env ? { env } : {}) });
    let buffer = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      if (buffer.includes('"id":2')) {
        resolveRun(performance.now() - started);
        child.kill();
      }
    });
    child.on("error", reject);
    child.stdin.write(RAW_MESSAGES.join(""));
  });
}

/** `node -e 0`, spawn to exit, the floor under any Node server. */
function bareNode(runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const started = performance.now();
    spawnSync(process.execPath, ["-e", "0"]);
    if (i > 0) times.push(performance.now() - started);
  }
  return times;
}

const BASELINE_SOURCE = `
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new Server({ name: "baseline", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "echo", description: "Echoes", inputSchema: { type: "object", properties: { text: { type: "string" } } } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (r) => ({ content: [{ type: "text", text: String(r.params.arguments?.text) }] }));
await server.connect(new StdioServerTransport());
`;

/** Bundles the one-tool baseline with the options scripts/build.ts uses for dist/seo.js. */
async function bundleBaseline(dir: string): Promise<string> {
  const outfile = join(dir, "baseline-mcp.js");
  writeFileSync(join(dir, "package.json"), '{"type":"module"}');
  await build({
    stdin: { contents: BASELINE_SOURCE, resolveDir: process.cwd(), loader: "ts" },
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22",
    minifySyntax: true,
    legalComments: "none",
    banner: {
      js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);',
    },
    logLevel: "warning",
  });
  return outfile;
}

const fmt = (n: number) => n.toFixed(1).padStart(7);
const row = (name: string, xs: number[], base: number) =>
  `${name.padEnd(34)} ${fmt(median(xs))} ${fmt(Math.min(...xs))} ${fmt(Math.max(...xs))}   ${(median(xs) / base).toFixed(2)}x`;

async function main() {
  const args = process.argv.slice(2);
  const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 10);
  if (!args.includes("--no-build"))
    execFileSync(process.execPath, ["scripts/build.ts", "seo"], { stdio: "inherit" });
  const dir = mkdtempSync(join(tmpdir(), "seo-coldstart-"));
  try {
    const baseline = await bundleBaseline(dir);
    process.stderr.write(`measuring ${runs} runs each (plus 1 warm-up)...\n`);
    const node = bareNode(runs);
    const seoEnv = { PATH: process.env.PATH ?? "", SEO_CACHE_DIR: dir };
    const [base, seo, first] = (await interleaved(
      [
        { name: "baseline", command: process.execPath, args: [baseline] },
        { name: "seo", command: process.execPath, args: ["dist/seo.js", "mcp"], env: seoEnv },
        {
          name: "seo, empty compile cache",
          command: process.execPath,
          args: ["dist/seo.js", "mcp"],
          env: (run) => ({ ...seoEnv, NODE_COMPILE_CACHE: join(dir, `cc-${run}`) }),
        },
      ],
      runs,
    )) as [ColdStart, ColdStart, ColdStart];
    const rawBase: number[] = [];
    const rawSeo: number[] = [];
    for (let i = -1; i < runs; i++) {
      const x = await rawOnce(process.execPath, [baseline]);
      const y = await rawOnce(process.execPath, ["dist/seo.js", "mcp"], seoEnv);
      if (i >= 0) {
        rawBase.push(x);
        rawSeo.push(y);
      }
    }
    const b = base.median;
    console.log(`cold start, spawn -> tools/list answered (ms), ${runs} runs, node ${process.version}`);
    console.log(
      `${"".padEnd(34)} ${"median".padStart(7)} ${"min".padStart(7)} ${"max".padStart(7)}   vs one-tool SDK server`,
    );
    console.log(row("node -e 0 (spawn to exit)", node, b));
    console.log(row("one-tool SDK server (bundled)", base.runs, b));
    console.log(row("one-tool SDK server: initialize only", base.initialize, b));
    console.log(row(`seo-audit-mcp (${seo.tools} tools)`, seo.runs, b));
    console.log(row("seo-audit-mcp: initialize only", seo.initialize, b));
    console.log(row("seo-audit-mcp, first start (no cache)", first.runs, b));
    console.log("server side only (bare JSON-RPC writer; no SDK client compiling the output schemas):");
    console.log(row("one-tool SDK server, raw", rawBase, median(rawBase)));
    console.log(row("seo-audit-mcp, raw", rawSeo, median(rawBase)));
    const ratio = seo.median / b;
    console.log(
      `target: within 1.10x of the one-tool SDK server -> ${ratio <= 1.1 ? "met" : "NOT met"} (${ratio.toFixed(2)}x: ${seo.median.toFixed(1)} ms vs ${b.toFixed(1)} ms with the SDK client; ${(median(rawSeo) / median(rawBase)).toFixed(2)}x raw)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
