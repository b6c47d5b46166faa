/**
 * Benchmark: requests/second on `GET /api/v1/sites?bbox=...` (a box answering 20 sites)
 * through the built `dist/charging.js`, against a bare `node:http` server sending the same
 * bytes, in the same run with the same load generator (autocannon, 50 connections).
 * Each server runs in its own process; one warm-up each, then alternating timed runs; the
 * figures are medians. Progress on stderr, figures on stdout.
 *
 * Usage: node scripts/bench-charging.ts [--runs 3] [--duration 10] [--warmup 3]
 * @module
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startBuilt, stop } from "./smoke.ts";

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  throughput: { average: number };
  non2xx: number;
  errors: number;
}
type Cannon = (options: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Cannon;

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
  },
});
const runs = Number(values.runs);
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const say = (line: string) => process.stderr.write(`bench: ${line}\n`);

type Page = { data: { lat: number; lon: number }[]; page: { total: number } };

/** A bbox around the densest spot that answers at least 20 sites (grown until it does). */
async function findBox(url: string): Promise<string> {
  const sample = (await (await fetch(`${url}/api/v1/sites?limit=100&offset=2000`)).json()) as Page;
  const seed = sample.data[0];
  if (!seed) throw new Error("the dataset has too few sites to benchmark");
  for (let half = 0.01; half < 90; half *= 2) {
    const box = [seed.lon - half, seed.lat - half, seed.lon + half, seed.lat + half]
      .map((n) => n.toFixed(4))
      .join(",");
    const page = (await (await fetch(`${url}/api/v1/sites?bbox=${box}`)).json()) as Page;
    if (page.data.length === 20) return box;
  }
  throw new Error("no bbox answers 20 sites");
}

const BARE = `
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
const body = readFileSync(process.env.BODY_FILE);
const headers = { "content-type": process.env.BODY_TYPE, "content-length": String(body.byteLength) };
const server = createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
server.keepAliveTimeout = 5000;
server.listen(0, "127.0.0.1", () => process.stderr.write("listening on http://127.0.0.1:" + server.address().port + "\\n"));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
`;

const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/** CPU time (user + system, ms) a process has used so far, from /proc; undefined elsewhere. */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

interface Run extends CannonResult {
  /** Server CPU microseconds per answered request (undefined without /proc). */
  cpuPerRequest?: number;
}

async function load(url: string, seconds: number, pid?: number): Promise<Run> {
  const before = cpuMs(pid);
  const result: Run = await autocannon({ url, connections: 50, duration: seconds });
  const after = cpuMs(pid);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  if (before !== undefined && after !== undefined) {
    result.cpuPerRequest = ((after - before) * 1000) / result.requests.total;
  }
  return result;
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * Server CPU per request is what the adapter and handler cost, whatever else shares the
 * machine; the req/s ratio moves with the load of other processes, this one much less.
 */
function cpuLine(figures: { charging: Run[]; bare: Run[] }): string[] {
  const cpu = (rs: Run[]) => median(rs.map((r) => r.cpuPerRequest ?? Number.NaN));
  const ratio = cpu(figures.bare) / cpu(figures.charging);
  return Number.isNaN(ratio)
    ? []
    : [`CPU efficiency bare/charging = ${ratio.toFixed(3)} (server CPU per request)`];
}

async function main(): Promise<void> {
  if (!existsSync("dist/charging.js")) {
    say("building dist/charging.js");
    spawnSync(process.execPath, ["scripts/build.ts", "charging"], { stdio: "inherit" });
  }
  // The limiter still runs on every request; only its ceiling is raised out of the way.
  const charging = await startBuilt({ CHARGING_RATE_LIMIT: "1000000000" });
  const dir = mkdtempSync(join(tmpdir(), "bench-charging-"));
  let bare: Awaited<ReturnType<typeof startBuilt>> | undefined;
  try {
    const box = await findBox(charging.url);
    const path = `/api/v1/sites?bbox=${box}`;
    const sample = await fetch(charging.url + path);
    const body = new Uint8Array(await sample.arrayBuffer());
    writeFileSync(join(dir, "body.json"), body);
    writeFileSync(join(dir, "bare.mjs"), BARE);
    bare = await startBuilt(
      {
        BODY_FILE: join(dir, "body.json"),
        BODY_TYPE: sample.headers.get("content-type") ?? "application/json",
      },
      join(dir, "bare.mjs"),
    );
    say(`${path} answers ${body.byteLength} bytes; warm-up ${warmup} s each`);
    await load(charging.url + path, warmup);
    await load(bare.url + path, warmup);
    const figures = { charging: [] as Run[], bare: [] as Run[] };
    for (let run = 1; run <= runs; run++) {
      for (const [name, server] of [
        ["charging", charging],
        ["bare", bare],
      ] as const) {
        const result = await load(server.url + path, duration, server.child.pid);
        figures[name].push(result);
        say(`run ${run}/${runs} ${name}: ${result.requests.average.toFixed(0)} req/s`);
      }
    }
    const rate = (name: "charging" | "bare") => median(figures[name].map((r) => r.requests.average));
    const lines = (["charging", "bare"] as const).map((name) => {
      const rs = figures[name];
      const all = rs.map((r) => r.requests.average.toFixed(0)).join(" / ");
      const p = `p50 ${median(rs.map((r) => r.latency.p50))} ms, p99 ${median(rs.map((r) => r.latency.p99))} ms`;
      const cpu = rs.every((r) => r.cpuPerRequest !== undefined)
        ? `; server CPU ${median(rs.map((r) => r.cpuPerRequest as number)).toFixed(1)} µs/request`
        : "";
      return `${name.padEnd(8)} median ${rate(name).toFixed(0)} req/s (runs ${all}; ${p}${cpu})`;
    });
    process.stdout.write(
      [
        `GET ${path} (${body.byteLength} bytes, 20 sites), autocannon 50 connections, ${runs} x ${duration} s`,
        ...lines,
        `ratio charging/bare = ${(rate("charging") / rate("bare")).toFixed(3)}`,
        `paired ratio median = ${median(figures.charging.map((r, i) => r.requests.average / (figures.bare[i] as Run).requests.average)).toFixed(3)} (each run against the bare run right after it)`,
        ...cpuLine(figures),
        "",
      ].join("\n"),
    );
  } finally {
    await stop(charging.child);
    if (bare) await stop(bare.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
