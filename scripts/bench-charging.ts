/**
 * Benchmark: requests/second on `GET /api/v1/sites?bbox=...` (a box answering 20 sites)
 * through the built `dist/charging.js`, against a bare `node:http` server sending the same
 * bytes, in the same run with the same load generator (autocannon, 50 connections).
 * Three workloads, side by side:
 * - repeated: the same query every time (answered from the kept answer);
 * - distinct: a new bbox per request, as map pans make (every request a cache miss);
 * - distinct, `accept-encoding: br, gzip` as browsers send: every miss also compressed
 *   (the bare server sends the compressed bytes it was given, doing no work).
 * The bare server sends the answer's body and header lines as ours sent them (BARE below).
 * Each server runs in its own process; one warm-up each, then alternating timed runs; the
 * figures are medians. Progress on stderr, figures on stdout, last the CPU a compressed miss
 * costs against an uncompressed one.
 *
 * Usage: node scripts/bench-charging.ts [--runs 3] [--duration 10] [--warmup 3] [--entry dist/charging.js]
 * (`--entry`: another build of the server, e.g. one of an earlier commit, against the same bare server)
 * @module
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
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
    entry: { type: "string", default: "dist/charging.js" },
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

/**
 * The bare server: the answer's bytes and header lines as our server sent them (rate-limit,
 * CORS, caching and encoding headers included, so both write the same bytes to the socket),
 * written as one would by hand: one headers array, one body, no per-request work.
 */
const BARE = `
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
const body = readFileSync(process.env.BODY_FILE);
const headers = JSON.parse(process.env.BODY_HEADERS);
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

/** What a workload asks: the next request's path, and its headers. */
interface Workload {
  name: string;
  path: () => string;
  headers: Record<string, string>;
}

async function load(url: string, workload: Workload, seconds: number, pid?: number): Promise<Run> {
  const before = cpuMs(pid);
  const result: Run = await autocannon({
    url,
    connections: 50,
    duration: seconds,
    headers: workload.headers,
    requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, path: workload.path() }) }],
  });
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

/**
 * Boxes the size of `box`, each shifted by a tenth of a micro-degree more than the last (along
 * `direction`): a million distinct queries within 0.1 degree, all answering about as many sites.
 */
function distinctBoxes(box: string, direction: 1 | -1): () => string {
  const [w, south, e, n] = box.split(",").map(Number) as [number, number, number, number];
  let i = 0;
  return () => {
    const d = direction * (i++ % 1_000_000) * 1e-7;
    return `/api/v1/sites?bbox=${[w + d, south + d, e + d, n + d].map((x) => x.toFixed(7)).join(",")}`;
  };
}

type Started = Awaited<ReturnType<typeof startBuilt>>;

/** Alternating timed runs of `workload` on both servers; the lines of its figures. */
async function measure(workload: Workload, charging: Started, bare: Started, bytes: number): Promise<{ lines: string[]; cpu: number }> {
  say(`${workload.name}: warm-up ${warmup} s each`);
  await load(charging.url, workload, warmup);
  await load(bare.url, workload, warmup);
  const figures = { charging: [] as Run[], bare: [] as Run[] };
  for (let run = 1; run <= runs; run++) {
    for (const [name, server] of [
      ["charging", charging],
      ["bare", bare],
    ] as const) {
      const result = await load(server.url, workload, duration, server.child.pid);
      figures[name].push(result);
      say(`${workload.name} run ${run}/${runs} ${name}: ${result.requests.average.toFixed(0)} req/s`);
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
    return `  ${name.padEnd(8)} median ${rate(name).toFixed(0)} req/s (runs ${all}; ${p}${cpu})`;
  });
  return {
    lines: [
      `${workload.name} (${bytes} bytes a body), autocannon 50 connections, ${runs} x ${duration} s`,
      ...lines,
      `  ratio charging/bare = ${(rate("charging") / rate("bare")).toFixed(3)}`,
      `  paired ratio median = ${median(figures.charging.map((r, i) => r.requests.average / (figures.bare[i] as Run).requests.average)).toFixed(3)} (each run against the bare run right after it)`,
      ...cpuLine(figures).map((line) => `  ${line}`),
    ],
    cpu: median(figures.charging.map((r) => r.cpuPerRequest ?? Number.NaN)),
  };
}

/** Header lines Node's server writes itself, whoever answers (the rest are the answer's own). */
const NODE_OWN = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/** A bare server sending `sample`'s body and header lines to every request. */
async function bareServer(dir: string, name: string, sample: Sample): Promise<Started> {
  writeFileSync(join(dir, `${name}.body`), sample.body);
  const headers: string[] = [];
  for (let i = 0; i < sample.rawHeaders.length; i += 2) {
    const key = sample.rawHeaders[i] as string;
    if (!NODE_OWN.has(key.toLowerCase())) headers.push(key, sample.rawHeaders[i + 1] as string);
  }
  return startBuilt({ BODY_FILE: join(dir, `${name}.body`), BODY_HEADERS: JSON.stringify(headers) }, join(dir, "bare.mjs"));
}

async function main(): Promise<void> {
  if (!existsSync(values.entry)) {
    say(`building dist/charging.js (${values.entry} is missing)`);
    spawnSync(process.execPath, ["scripts/build.ts", "charging"], { stdio: "inherit" });
  }
  // The limiter still runs on every request; only its ceiling is raised out of the way.
  const charging = await startBuilt({ CHARGING_RATE_LIMIT: "1000000000" }, values.entry);
  const dir = mkdtempSync(join(tmpdir(), "bench-charging-"));
  const bares: Started[] = [];
  try {
    const box = await findBox(charging.url);
    const path = `/api/v1/sites?bbox=${box}`;
    const BROWSER = { "accept-encoding": "br, gzip" };
    // Read off raw requests: the bytes as sent (Node's fetch would decode a compressed body).
    const body = await rawSample(charging.url + path, {});
    const packed = await rawSample(charging.url + path, BROWSER);
    writeFileSync(join(dir, "bare.mjs"), BARE);
    const plain = await bareServer(dir, "plain", body);
    bares.push(plain);
    const compressed = await bareServer(dir, "packed", packed);
    bares.push(compressed);
    say(`${path} answers ${body.body.byteLength} bytes (${packed.encoding} ${packed.body.byteLength})`);
    const repeated = await measure({ name: `repeated: GET ${path}`, path: () => path, headers: {} }, charging, plain, body.body.byteLength);
    const distinct = await measure({ name: "distinct: a new bbox per request", path: distinctBoxes(box, 1), headers: {} }, charging, plain, body.body.byteLength);
    const browser = await measure(
      { name: "distinct, accept-encoding: br, gzip", path: distinctBoxes(box, -1), headers: BROWSER },
      charging,
      compressed,
      packed.body.byteLength,
    );
    process.stdout.write(
      [
        ...repeated.lines,
        ...distinct.lines,
        ...browser.lines,
        `a compressed miss costs ${(browser.cpu / distinct.cpu).toFixed(2)}x an uncompressed one (charging server CPU per request, medians)`,
        "",
      ].join("\n"),
    );
  } finally {
    await stop(charging.child);
    for (const bare of bares) await stop(bare.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Sample {
  body: Uint8Array;
  /** The answer's header lines as sent (name, value, name, value, ...). */
  rawHeaders: string[];
  encoding: string;
}

/** What `url` answers to `headers`: the body as sent (not decoded) and the header lines. */
function rawSample(url: string, headers: Record<string, string>): Promise<Sample> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ body: Buffer.concat(chunks), rawHeaders: res.rawHeaders, encoding: String(res.headers["content-encoding"] ?? "") }),
      );
    }).on("error", reject);
  });
}

await main();
