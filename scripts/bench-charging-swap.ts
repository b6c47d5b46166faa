/**
 * Swap benchmark of the charging API: a server on a continental data set (the seeded sites of
 * bench-charging-scale.ts, generated once into .bench/) answers a steady stream of requests
 * (`--rate` per second, sent on schedule whether or not earlier ones are answered) while
 * `CHARGING_DATA` is renamed over `--swaps` times, alternating between two cuts of different
 * sizes. Every answer is checked: HTTP 200, and its `page.total` is the size of the cut its
 * entity tag names (one snapshot per answer). Prints requests sent, failed and mixed, latency
 * (all, and during the swaps: from the rename to half a second after the server's line), how long each swap took from rename to the server's
 * "data reloaded" line, and the server's resident memory before, at its peak and after.
 *
 * Progress on stderr, the figures on stdout. Not part of `npm test`.
 *
 * Usage: node scripts/bench-charging-swap.ts [--sites 1000000] [--rate 100] [--swaps 4]
 *        [--every 10] [--settle 20] [--entry shim/node/charging/server.ts]
 * @module
 */
import { type ChildProcess, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { parseArgs } from "node:util";
import { crc32 } from "node:zlib";
import { openSnapshot } from "../src/charging/snapshot/read.ts";
import { startBuilt, stop } from "./smoke.ts";

const { values } = parseArgs({
  options: {
    sites: { type: "string", default: "1000000" },
    rate: { type: "string", default: "100" },
    swaps: { type: "string", default: "4" },
    every: { type: "string", default: "10" },
    settle: { type: "string", default: "20" },
    entry: { type: "string", default: "shim/node/charging/server.ts" },
  },
});
const SITES = Number(values.sites);
const RATE = Number(values.rate);
const SWAPS = Number(values.swaps);
const EVERY_MS = Number(values.every) * 1000;
const SETTLE_MS = Number(values.settle) * 1000;
const say = (line: string) => process.stderr.write(`bench: ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The seeded sites of the scale bench, generated (once) by its --generate-only mode. */
function cut(sites: number): string {
  const path = `.bench/charging-${sites}.snapshot`;
  if (existsSync(path)) return path;
  say(`generating ${path}`);
  const run = spawnSync(process.execPath, ["scripts/bench-charging-scale.ts", "--generate-only", "--sites", String(sites)], { stdio: ["ignore", "inherit", "inherit"] });
  if (run.status !== 0) throw new Error(`generating ${path} failed`);
  return path;
}

function rssMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Tally {
  sent: number;
  failed: number;
  mixed: number;
  latencies: { at: number; ms: number }[];
  errors: string[];
}

/** One request checked: 200, and the total of the cut its entity tag names. */
async function ask(url: string, sizes: Map<string, number>, tally: Tally): Promise<void> {
  const began = performance.now();
  tally.sent++;
  try {
    const response = await fetch(url);
    const body = (await response.json()) as { page?: { total: number } };
    if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    const version = /^"([^-]+)-/.exec(response.headers.get("etag") ?? "")?.[1] ?? "";
    if (sizes.get(version) !== body.page?.total) tally.mixed++;
  } catch (err) {
    tally.failed++;
    if (tally.errors.length < 5) tally.errors.push((err as Error).message);
  }
  tally.latencies.push({ at: began, ms: performance.now() - began });
}

/** Sends `RATE` requests a second on schedule until `stop()`; resolves once all are answered. */
function load(base: string, sizes: Map<string, number>, tally: Tally) {
  let running = true;
  const pending: Promise<void>[] = [];
  const started = performance.now();
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const due = started + (i * 1000) / RATE;
      if (due > performance.now()) await sleep(due - performance.now());
      pending.push(ask(`${base}/api/v1/sites?limit=20&offset=${(i * 37) % 5000}`, sizes, tally));
    }
  })();
  return async () => {
    running = false;
    await loop;
    await Promise.all(pending);
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

async function waitForLine(server: { stderr(): string }, count: number): Promise<void> {
  while ((server.stderr().match(/data reloaded/g) ?? []).length < count) await sleep(5);
}

async function main(): Promise<void> {
  const cuts = [cut(SITES), cut(SITES - 1000)];
  const sizes = new Map(
    cuts.map((path) => {
      const snapshot = openSnapshot(readFileSync(path), { crc32: (b) => crc32(b) });
      return [snapshot.version, snapshot.size];
    }),
  );
  mkdirSync(".bench/swap", { recursive: true });
  const served = ".bench/swap/served.snapshot";
  copyFileSync(cuts[0] as string, served);
  const server = await startBuilt({ CHARGING_DATA: served, CHARGING_RATE_LIMIT: "1000000000" }, values.entry);
  const tally: Tally = { sent: 0, failed: 0, mixed: 0, latencies: [], errors: [] };
  const stopLoad = load(server.url, sizes, tally);
  await sleep(3000);
  const rssBefore = rssMb(server.child);
  let rssPeak = rssBefore;
  const swapMs: number[] = [];
  const windows: [number, number][] = [];
  for (let swap = 1; swap <= SWAPS; swap++) {
    const next = cuts[swap % 2] as string;
    copyFileSync(next, `${served}.next`);
    const began = performance.now();
    renameSync(`${served}.next`, served);
    await waitForLine(server, swap);
    swapMs.push(performance.now() - began);
    windows.push([began, performance.now() + 500]);
    say(`swap ${swap} to ${next}: ${swapMs.at(-1)?.toFixed(0)} ms; RSS ${rssMb(server.child).toFixed(0)} MB`);
    for (let waited = 0; waited < EVERY_MS; waited += 250) {
      rssPeak = Math.max(rssPeak, rssMb(server.child));
      await sleep(250);
    }
  }
  const rssAfterSwaps = rssMb(server.child);
  await sleep(SETTLE_MS);
  const rssSettled = rssMb(server.child);
  await stopLoad();
  await stop(server.child);
  const all = tally.latencies.map((l) => l.ms).sort((a, b) => a - b);
  const during = tally.latencies.filter((l) => windows.some(([from, to]) => l.at >= from && l.at < to)).map((l) => l.ms).sort((a, b) => a - b);
  const out = [
    `charging swap bench: ${SITES} / ${SITES - 1000} sites, ${SWAPS} swaps ${EVERY_MS / 1000} s apart under ${RATE} requests/s, Node ${process.versions.node}, ${values.entry}`,
    `requests: sent ${tally.sent}, failed ${tally.failed}, mixed (etag and body from different cuts) ${tally.mixed}${tally.errors.length ? ` (${tally.errors.join("; ")})` : ""}`,
    `latency ms: all p50 ${percentile(all, 0.5).toFixed(1)}, p99 ${percentile(all, 0.99).toFixed(1)}, max ${(all.at(-1) ?? 0).toFixed(0)}; during the swaps (${during.length} requests) p50 ${percentile(during, 0.5).toFixed(1)}, p99 ${percentile(during, 0.99).toFixed(1)}, max ${(during.at(-1) ?? 0).toFixed(0)}`,
    `swap (rename to "data reloaded") ms: ${swapMs.map((ms) => ms.toFixed(0)).join(", ")}`,
    `server RSS MB: ${rssBefore.toFixed(0)} before, ${rssPeak.toFixed(0)} peak, ${rssAfterSwaps.toFixed(0)} right after the last swap's ${EVERY_MS / 1000} s, ${rssSettled.toFixed(0)} after ${SETTLE_MS / 1000} s more`,
  ];
  process.stdout.write(`${out.join("\n")}\n`);
}

await main();
