/**
 * Benchmark: requests/second on `GET /api/v1/sites?bbox=...` (a box answering 20 sites)
 * through the built `dist/charging.js`, against a bare `node:http` server sending the same
 * bytes, in the same run with the same load generator (autocannon, 50 connections).
 * Three workloads, side by side:
 * - repeated: the same query every time (answered from the kept answer);
 * - distinct: a new bbox per request, as map pans make (every request a cache miss);
 * - distinct, `accept-encoding: br, gzip` as browsers send: every miss also compressed
 *   (the bare server sends the compressed bytes it was given, doing no work).
 * The bare server sends the answer's body and header lines as ours sent them (scripts/bench-bare-server.ts).
 * The distinct workloads also run a second baseline, printed beside the bare one: a competent
 * hand-written `node:http` server doing the same work per request (COMPETENT below: the query
 * read with URLSearchParams, the sites found with kdbush's range over the same data, the page
 * made with JSON.stringify, gzip per request when asked), what a good engineer would write.
 * Before timing, its bodies are checked against ours, byte for byte, for a few queries.
 * Each server runs in its own process; one warm-up each, then alternating timed runs; the
 * figures are medians. Progress on stderr, figures on stdout, last the CPU a compressed miss
 * costs against an uncompressed one, twice:
 * - at saturation: the two distinct workloads' server CPU per request as timed above, where
 *   autocannon and the server share the machine's cores, so synchronous work (zlib) also pays
 *   for the contention it meets (on a 2-core machine, more than its own cost);
 * - paced: the same distinct queries, with and without `accept-encoding`, sent at a fixed rate
 *   well below saturation (`--paced-rate`, autocannon's `overallRate`), alternating, each
 *   `--runs` times: the cost of a miss with the cores otherwise idle. At a low rate each request
 *   also pays for waking the event loop (no batching of reads and writes), the same for both,
 *   so the ratio is smaller than the extra microseconds suggest: both are printed. Server CPU
 *   comes from /proc in clock ticks (usually 10 ms): at 300 req/s for 10 s one tick is 3.3 µs a
 *   request, the resolution of a paced run.
 *
 * Usage: node scripts/bench-charging.ts [--runs 3] [--duration 10] [--warmup 3] [--paced-rate 300] [--entry dist/charging.js]
 * (`--entry`: another build of the server, e.g. one of an earlier commit, against the same bare server)
 * @module
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { gunzipSync } from "node:zlib";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { startBuilt, stop } from "./smoke.ts";
import { BARE_SERVER } from "./bench-bare-server.ts";

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
    "paced-rate": { type: "string", default: "300" },
  },
});
const runs = Number(values.runs);
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const pacedRate = Number(values["paced-rate"]);
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
 * The competent baseline: a hand-written node:http server answering the bbox search as a good
 * engineer would, with no framework and no caching. It takes from dist only the data loading
 * (the embedded snapshot, opened by the same store) and the site projection (the decoded site
 * objects, serialised here with JSON.stringify, and their attribution); the request handling is
 * its own: the bbox read with URLSearchParams and checked, the sites in it found with kdbush's
 * range over the same coordinates, ordered nearest the box's centre first (ties in row order,
 * which is id order) as the API documents, the first 20 of them and the count serialised with one
 * JSON.stringify, and gzip (zlib's fastest level, as for any answer made per request) when the
 * client accepts it. Boxes across the antimeridian are not handled (the workload has none).
 */
const COMPETENT = `
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
const { default: KDBush } = await import(process.env.KDBUSH_URL);
const { createStore, loadEmbeddedSnapshot, openSnapshot } = await import(process.env.LIB_URL);
const store = createStore(openSnapshot(await loadEmbeddedSnapshot()));
const sites = [...store.sites()];
const index = new KDBush(sites.length);
for (const site of sites) index.add(site.lon, site.lat);
index.finish();
const RAD = Math.PI / 180;
const hav = (t) => { const s = Math.sin(t / 2); return s * s; };
function fail(res, status, message) {
  const body = JSON.stringify({ error: { code: "INVALID_ARGUMENTS", message } });
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}
function page(query) {
  const box = (query.get("bbox") ?? "").split(",").map(Number);
  if (box.length !== 4 || !box.every(Number.isFinite)) return undefined;
  const [w, s, e, n] = box;
  if (s > n || w > e || s < -90 || n > 90 || w < -180 || e > 180) return undefined;
  const lng = (w + e) / 2, lat = (s + n) / 2, cosLat = Math.cos(lat * RAD);
  const found = index.range(w, s, e, n).map((row) => {
    const site = sites[row];
    return { row, dist: cosLat * Math.cos(site.lat * RAD) * hav((lng - site.lon) * RAD) + hav((lat - site.lat) * RAD) };
  });
  found.sort((a, b) => a.dist - b.dist || a.row - b.row);
  const data = found.slice(0, 20).map(({ row }) => sites[row]);
  const credits = new Map();
  for (const site of data) if (!credits.has(site.attributionKey)) credits.set(site.attributionKey, store.attributionFor(site));
  return JSON.stringify({ data, page: { limit: 20, offset: 0, total: found.length }, attribution: [...credits.values()] });
}
const server = createServer((req, res) => {
  const at = req.url.indexOf("?");
  const body = page(new URLSearchParams(at < 0 ? "" : req.url.slice(at + 1)));
  if (body === undefined) return fail(res, 400, "bbox must be minLon,minLat,maxLon,maxLat");
  const headers = { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=300", vary: "accept-encoding" };
  let bytes = Buffer.from(body);
  if (/\\bgzip\\b/.test(req.headers["accept-encoding"] ?? "")) {
    bytes = gzipSync(bytes, { level: 1 });
    headers["content-encoding"] = "gzip";
  }
  headers["content-length"] = bytes.byteLength;
  res.writeHead(200, headers);
  res.end(bytes);
});
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

/** `workload` on `url` for `seconds`, as fast as it answers or, given `rate`, at that many requests a second in all. */
async function load(url: string, workload: Workload, seconds: number, pid?: number, rate?: number): Promise<Run> {
  const before = cpuMs(pid);
  const result: Run = await autocannon({
    url,
    connections: 50,
    duration: seconds,
    ...(rate === undefined ? {} : { overallRate: rate }),
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
function cpuLine(figures: { charging: Run[]; bare: Run[] }, name = "bare"): string[] {
  const cpu = (rs: Run[]) => median(rs.map((r) => r.cpuPerRequest ?? Number.NaN));
  const ratio = cpu(figures.bare) / cpu(figures.charging);
  return Number.isNaN(ratio)
    ? []
    : [`CPU efficiency ${name}/charging = ${ratio.toFixed(3)} (server CPU per request)`];
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

/**
 * Alternating timed runs of `workload` on our server and the baselines (`bare` first); the
 * lines of its figures, with the ratio against each baseline.
 */
async function measure(workload: Workload, charging: Started, baselines: Record<string, Started>, bytes: number): Promise<{ lines: string[]; cpu: number }> {
  const servers = [["charging", charging] as const, ...Object.entries(baselines)];
  say(`${workload.name}: warm-up ${warmup} s each`);
  for (const [, server] of servers) await load(server.url, workload, warmup);
  const figures: Record<string, Run[]> = Object.fromEntries(servers.map(([name]) => [name, [] as Run[]]));
  for (let run = 1; run <= runs; run++) {
    for (const [name, server] of servers) {
      const result = await load(server.url, workload, duration, server.child.pid);
      figures[name]?.push(result);
      say(`${workload.name} run ${run}/${runs} ${name}: ${result.requests.average.toFixed(0)} req/s`);
    }
  }
  const of = (name: string) => figures[name] as Run[];
  const rate = (name: string) => median(of(name).map((r) => r.requests.average));
  const lines = servers.map(([name]) => {
    const rs = of(name);
    const all = rs.map((r) => r.requests.average.toFixed(0)).join(" / ");
    const p = `p50 ${median(rs.map((r) => r.latency.p50))} ms, p99 ${median(rs.map((r) => r.latency.p99))} ms`;
    const cpu = rs.every((r) => r.cpuPerRequest !== undefined)
      ? `; server CPU ${median(rs.map((r) => r.cpuPerRequest as number)).toFixed(1)} µs/request`
      : "";
    return `  ${name.padEnd(9)} median ${rate(name).toFixed(0)} req/s (runs ${all}; ${p}${cpu})`;
  });
  const ratios = Object.keys(baselines).flatMap((name) => [
    `  ratio charging/${name} = ${(rate("charging") / rate(name)).toFixed(3)}`,
    `  paired ratio median = ${median(of("charging").map((r, i) => r.requests.average / (of(name)[i] as Run).requests.average)).toFixed(3)} (each run against the ${name} run right after it)`,
    ...cpuLine({ charging: of("charging"), bare: of(name) }, name).map((line) => `  ${line}`),
  ]);
  return {
    lines: [`${workload.name} (${bytes} bytes a body), autocannon 50 connections, ${runs} x ${duration} s`, ...lines, ...ratios],
    cpu: median(of("charging").map((r) => r.cpuPerRequest ?? Number.NaN)),
  };
}

/**
 * Server CPU per request of the two distinct workloads at `pacedRate` on our server alone,
 * alternating (`runs` each, after a warm-up of each): the medians, and the line saying what a
 * compressed miss costs against an uncompressed one at that rate.
 */
async function paced(plain: Workload, compressed: Workload, charging: Started): Promise<string[]> {
  say(`paced at ${pacedRate} req/s: warm-up ${warmup} s each`);
  for (const workload of [plain, compressed]) await load(charging.url, workload, warmup, undefined, pacedRate);
  const cpu: [number[], number[]] = [[], []];
  for (let run = 1; run <= runs; run++) {
    for (const [i, workload] of [plain, compressed].entries()) {
      const result = await load(charging.url, workload, duration, charging.child.pid, pacedRate);
      cpu[i]?.push(result.cpuPerRequest ?? Number.NaN);
      say(`paced ${workload.name} run ${run}/${runs}: ${result.requests.average.toFixed(0)} req/s, server CPU ${result.cpuPerRequest?.toFixed(1)} µs/request`);
    }
  }
  const [a, b] = [median(cpu[0]), median(cpu[1])];
  return [
    `paced at ${pacedRate} req/s (autocannon overallRate, 50 connections, ${runs} x ${duration} s each, alternating): server CPU per request ${a.toFixed(1)} µs uncompressed (runs ${cpu[0].map((x) => x.toFixed(1)).join(" / ")}), ${b.toFixed(1)} µs compressed (runs ${cpu[1].map((x) => x.toFixed(1)).join(" / ")})`,
    `a compressed miss costs ${(b / a).toFixed(2)}x an uncompressed one, ${(b - a).toFixed(1)} µs more (paced at ${pacedRate} req/s, charging server CPU per request, medians)`,
  ];
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
    writeFileSync(join(dir, "bare.mjs"), BARE_SERVER);
    writeFileSync(join(dir, "competent.mjs"), COMPETENT);
    const plain = await bareServer(dir, "plain", body);
    bares.push(plain);
    const compressed = await bareServer(dir, "packed", packed);
    bares.push(compressed);
    const competent = await startBuilt(
      { LIB_URL: pathToFileURL(resolve("dist/charging-lib.js")).href, KDBUSH_URL: import.meta.resolve("kdbush") },
      join(dir, "competent.mjs"),
    );
    bares.push(competent);
    say(`${path} answers ${body.body.byteLength} bytes (${packed.encoding} ${packed.body.byteLength})`);
    const same = await sameAnswers(charging.url, competent.url, [path, ...take(distinctBoxes(box, 1), 3), ...take(distinctBoxes(box, -1), 3)], BROWSER);
    say(`competent server: ${same}`);
    const repeated = await measure({ name: `repeated: GET ${path}`, path: () => path, headers: {} }, charging, { bare: plain }, body.body.byteLength);
    const distinctPlain = { name: "distinct: a new bbox per request", path: distinctBoxes(box, 1), headers: {} };
    const distinctPacked = { name: "distinct, accept-encoding: br, gzip", path: distinctBoxes(box, -1), headers: BROWSER };
    const distinct = await measure(distinctPlain, charging, { bare: plain, competent }, body.body.byteLength);
    const browser = await measure(distinctPacked, charging, { bare: compressed, competent }, packed.body.byteLength);
    const pacedLines = await paced(distinctPlain, distinctPacked, charging);
    process.stdout.write(
      [
        ...repeated.lines,
        ...distinct.lines,
        ...browser.lines,
        `competent server's bodies against ours: ${same}`,
        `a compressed miss costs ${(browser.cpu / distinct.cpu).toFixed(2)}x an uncompressed one, ${(browser.cpu - distinct.cpu).toFixed(1)} µs more (at saturation, charging server CPU per request, medians)`,
        ...pacedLines,
        "",
      ].join("\n"),
    );
  } finally {
    await stop(charging.child);
    for (const bare of bares) await stop(bare.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

const take = (next: () => string, count: number) => Array.from({ length: count }, next);

/**
 * Checks that the competent server answers `paths` as ours does: the same body bytes, and with
 * `compressed` headers, the same bytes once decompressed (two gzip encoders at one level may
 * still differ in their bytes); throws on a difference, else says what was compared.
 */
async function sameAnswers(ours: string, theirs: string, paths: string[], compressed: Record<string, string>): Promise<string> {
  const sizes: string[] = [];
  for (const path of paths) {
    for (const headers of [{}, compressed]) {
      const [a, b] = await Promise.all([rawSample(ours + path, headers), rawSample(theirs + path, headers)]);
      const plainA = a.encoding === "gzip" ? gunzipSync(a.body) : a.body;
      const plainB = b.encoding === "gzip" ? gunzipSync(b.body) : b.body;
      if (a.encoding !== b.encoding || !Buffer.from(plainA).equals(Buffer.from(plainB))) {
        throw new Error(`the competent server answers ${path} (${a.encoding || "identity"}) otherwise than ours:\n${Buffer.from(plainB).toString().slice(0, 300)}\nours:\n${Buffer.from(plainA).toString().slice(0, 300)}`);
      }
      if (a.encoding) sizes.push(`${a.body.byteLength}/${b.body.byteLength}`);
    }
  }
  return `${paths.length} queries, identity bodies byte-identical, gzip bodies identical once decompressed (gzip bytes ours/theirs: ${sizes.join(", ")})`;
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
