/**
 * Profile: where a distinct (cache-miss) search's time goes in the built server, beside a bare
 * node:http server sending the same bytes. Each server runs alone under `node --cpu-prof`
 * while autocannon (50 connections, `--duration` s) asks a new box per request (a Paris box
 * shifted by a tenth of a micro-degree each time, as map pans make); then each profile is
 * split per request into the bundle's own code, `writev`, the garbage collector, the rest
 * (Node's HTTP, URL and stream code) and idle, and our server's hottest functions are listed.
 * The profiler samples wall-clock time on the main thread: a sample inside `writev` counts the
 * time the thread sat in that system call, including time the 2 cores were busy elsewhere (the
 * load generator), so it is not all work of ours. Beside each split, the main thread's own
 * figures from /proc (Linux only) tell the two apart: CPU a request (user and kernel), the time
 * it was ready to run but waited for a core, and how often it was preempted. A thread
 * preempted inside `writev` (the answer wakes the load generator, which takes the core at the
 * call's return) shows as `writev` in the profile and as waiting here.
 * A third server runs our Node adapter (shim/node/serve.ts, from the sources) with a handler
 * that answers the same prepared bytes and header lines and does nothing else: what the
 * adapter's path costs without the search, its "bundle" being the adapter's own sources.
 * A fourth adds the search to that: the same adapter and store, each box read with
 * URLSearchParams, the page found by the store's search and assembled by the REST answers'
 * own code (answers.ts), sent with the same header lines, without the request pipeline (route
 * table, validation, rate limit, entity tag, CORS). Its first answer is checked against
 * ours byte for byte. Ours minus this one is what the pipeline costs a request.
 *
 * Usage: node scripts/bench-charging-profile.ts [--duration 8] [--entry dist/charging.js] [--top 15]
 * @module
 */
import { spawnSync } from "node:child_process";
import { readdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { startBuilt } from "./smoke.ts";
import { BARE_SERVER } from "./bench-bare-server.ts";

const { values } = parseArgs({
  options: { duration: { type: "string", default: "8" }, entry: { type: "string", default: "dist/charging.js" }, top: { type: "string", default: "15" } },
});
const autocannon = createRequire(import.meta.url)("autocannon") as (options: Record<string, unknown>) => Promise<{ requests: { total: number; average: number }; non2xx: number }>;
const BOX = [2.3422, 48.8466, 2.3622, 48.8666];
const path = (shift: number) => `/api/v1/sites?bbox=${BOX.map((x) => (x + (shift % 1e6) * 1e-7).toFixed(7)).join(",")}`;
// Header lines Node writes itself on every answer.
const NODE_OWN = new Set(["connection", "keep-alive", "date"]);

interface Profile { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[] }

/** Our server's answer to the first box, as bytes and the header lines Node did not add. */
function sample(url: string): Promise<{ body: Buffer; headers: Record<string, string> }> {
  return new Promise((ok, fail) => get(url + path(0), (res) => {
    const chunks: Buffer[] = [];
    res.on("data", (chunk: Buffer) => chunks.push(chunk));
    res.on("end", () => ok({ body: Buffer.concat(chunks), headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => !NODE_OWN.has(k))) as Record<string, string> }));
  }).on("error", fail));
}

/** A thread's scheduler counters: CPU (user, kernel) and time ready but not running, in µs; preemptions. */
interface Sched { user: number; kernel: number; waiting: number; preempted: number }
const TICK_US = 1e6 / (Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100);

/** The main thread's counters (its task id is the pid), or undefined without Linux's /proc. */
function schedOf(pid: number | undefined): Sched | undefined {
  try {
    const task = `/proc/${pid}/task/${pid}`;
    const stat = readFileSync(`${task}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const waitingNs = Number(readFileSync(`${task}/schedstat`, "utf8").split(" ")[1]);
    const preempted = Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`${task}/status`, "utf8"))?.[1]);
    return { user: Number(fields[11]) * TICK_US, kernel: Number(fields[12]) * TICK_US, waiting: waitingNs / 1000, preempted };
  } catch {
    return undefined;
  }
}

/** The counters' growth over `requests`, a request: µs, and preemptions as a share. */
function schedLine(before: Sched | undefined, after: Sched | undefined, requests: number): string {
  if (!before || !after) return "";
  const per = (key: keyof Sched) => (after[key] - before[key]) / requests;
  return `main thread a request: CPU ${(per("user") + per("kernel")).toFixed(1)} µs (user ${per("user").toFixed(1)}, kernel ${per("kernel").toFixed(1)}), ready but waiting for a core ${per("waiting").toFixed(1)} µs, preempted ${per("preempted").toFixed(2)} times`;
}

/** `entry`'s answer to the first box (started for it alone, stopped after). */
async function firstAnswer(entry: string, env: Record<string, string>): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const server = await startBuilt(env, entry);
  try {
    return await sample(server.url);
  } finally {
    server.child.kill("SIGINT");
    await new Promise((done) => server.child.once("exit", done));
  }
}

/** Load `entry` under the profiler for the run; the profile, the requests answered and the main thread's scheduler line. */
async function profiled(entry: string, env: Record<string, string>, dir: string): Promise<{ profile: Profile; requests: number; rate: number; sched: string }> {
  const profDir = mkdtempSync(join(dir, "prof-"));
  const server = await startBuilt({ ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir}` }, entry);
  let shift = 1;
  const before = schedOf(server.child.pid);
  const result = await autocannon({ url: server.url, connections: 50, duration: Number(values.duration), requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, path: path(shift++) }) }] });
  const sched = schedLine(before, schedOf(server.child.pid), result.requests.total);
  if (result.non2xx > 0) throw new Error(`${entry}: ${result.non2xx} non-2xx answers`);
  server.child.kill("SIGINT");
  await new Promise((done) => server.child.once("exit", done));
  const file = readdirSync(profDir)[0];
  if (!file) throw new Error(`${entry} wrote no profile`);
  return { profile: JSON.parse(readFileSync(join(profDir, file), "utf8")) as Profile, requests: result.requests.total, rate: result.requests.average, sched };
}

/**
 * Our Node adapter answering the sampled bytes and header lines from a handler that does no
 * other work: the adapter's cost (request conversion, prepared answer, header lines) alone.
 */
const ADAPTER_SERVER = `
import { readFileSync } from "node:fs";
const { serve } = await import(process.env.SERVE_URL);
const { preparedJson } = await import(process.env.RESPOND_URL);
const bytes = new Uint8Array(readFileSync(process.env.BODY_FILE));
const headers = JSON.parse(process.env.BODY_HEADERS);
const serving = await serve(async () => preparedJson({ bytes }, { headers }), { port: 0 });
process.stderr.write("listening on " + serving.url + "\\n");
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => serving.close().then(() => process.exit(0)));
`;

/**
 * Our adapter and store answering each box with the REST answers' assembly and the sampled
 * header lines, and nothing of the pipeline: the search's own cost behind the adapter.
 */
const SEARCH_SERVER = `
const { serve } = await import(process.env.SERVE_URL);
const { preparedJson } = await import(process.env.RESPOND_URL);
const { loadStore } = await import(process.env.APP_URL);
const { createAnswers } = await import(process.env.ANSWERS_URL);
const headers = JSON.parse(process.env.BODY_HEADERS);
const store = await loadStore();
await store.prepare();
const answers = createAnswers(store);
const LIMIT = 20;
const serving = await serve(async (request) => {
  const bbox = new URL(request.url).searchParams.get("bbox").split(",").map(Number);
  const found = await store.search({ bbox, limit: LIMIT, offset: 0 });
  const page = { limit: LIMIT, offset: 0, total: found.total };
  return preparedJson(answers.sites(found.data, page, found.attribution), { headers });
}, { port: 0 });
process.stderr.write("listening on " + serving.url + "\\n");
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => serving.close().then(() => process.exit(0)));
`;

/** µs per request by kind, and the hottest functions of our code (µs per request each); `ours` tells our code's scripts by URL. */
function split(profile: Profile, requests: number, ours: (url: string) => boolean): { kinds: Map<string, number>; hot: [string, number][] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const kinds = new Map<string, number>();
  const own = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id);
    const us = (profile.timeDeltas[i] ?? 0) / requests;
    if (!frame) return;
    const name = frame.functionName;
    const kind = ours(frame.url) ? "bundle" : name === "writev" ? "writev" : name === "(idle)" ? "idle" : name === "(garbage collector)" ? "gc" : "rest";
    kinds.set(kind, (kinds.get(kind) ?? 0) + us);
    if (kind === "bundle") own.set(`${name || "(anonymous)"}:${frame.lineNumber + 1}`, (own.get(`${name || "(anonymous)"}:${frame.lineNumber + 1}`) ?? 0) + us);
  });
  return { kinds, hot: [...own].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)) };
}

const line = (kinds: Map<string, number>) => ["bundle", "writev", "gc", "rest", "idle"].map((k) => `${k} ${(kinds.get(k) ?? 0).toFixed(1)}`).join(", ");

async function main(): Promise<void> {
  const entry = resolve(values.entry);
  const dir = mkdtempSync(join(tmpdir(), "bench-charging-profile-"));
  try {
    const env = { CHARGING_RATE_LIMIT: "1000000000" };
    const { body, headers } = await firstAnswer(entry, env);
    writeFileSync(join(dir, "bare.mjs"), BARE_SERVER);
    writeFileSync(join(dir, "body"), body);
    const ours = await profiled(entry, env, dir);
    const sent = { BODY_FILE: join(dir, "body"), BODY_HEADERS: JSON.stringify(headers) };
    const bare = await profiled(join(dir, "bare.mjs"), sent, dir);
    writeFileSync(join(dir, "adapter.mjs"), ADAPTER_SERVER);
    const sources = pathToFileURL(resolve(import.meta.dirname, "..")).href;
    const adapterUrls = { SERVE_URL: `${sources}/shim/node/serve.ts`, RESPOND_URL: `${sources}/src/shared/http/respond.ts` };
    const adapter = await profiled(join(dir, "adapter.mjs"), { ...sent, ...adapterUrls }, dir);
    writeFileSync(join(dir, "search.mjs"), SEARCH_SERVER);
    const searchEnv = { ...sent, ...adapterUrls, APP_URL: `${sources}/shim/node/charging/app.ts`, ANSWERS_URL: `${sources}/src/charging/transports/http/answers.ts` };
    if (!(await firstAnswer(join(dir, "search.mjs"), searchEnv)).body.equals(body)) throw new Error("the search server answers the first box otherwise than ours");
    const search = await profiled(join(dir, "search.mjs"), searchEnv, dir);
    const mine = split(ours.profile, ours.requests, (url) => url.endsWith(entry.split("/").pop() as string));
    console.log(`distinct boxes (${body.length} bytes a body), autocannon 50 connections, ${values.duration} s each, µs of profiled main-thread time a request:`);
    console.log(`  ours ${ours.rate.toFixed(0)} req/s: ${line(mine.kinds)}`);
    if (ours.sched) console.log(`    ${ours.sched}`);
    console.log(`  bare ${bare.rate.toFixed(0)} req/s: ${line(split(bare.profile, bare.requests, (url) => url.endsWith("bare.mjs")).kinds)}`);
    if (bare.sched) console.log(`    ${bare.sched}`);
    console.log(`  our adapter alone, the same bytes from a handler doing nothing else, ${adapter.rate.toFixed(0)} req/s: ${line(split(adapter.profile, adapter.requests, (url) => url.startsWith(sources)).kinds)}`);
    if (adapter.sched) console.log(`    ${adapter.sched}`);
    console.log(`  our adapter and search, no pipeline, ${search.rate.toFixed(0)} req/s: ${line(split(search.profile, search.requests, (url) => url.startsWith(sources)).kinds)}`);
    if (search.sched) console.log(`    ${search.sched}`);
    console.log("  our hottest functions in the bundle (self time, µs a request):");
    for (const [name, us] of mine.hot) console.log(`    ${us.toFixed(2)} ${name}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
