/**
 * Crawl benchmark through the shipped path.
 * A generated site (tests/seo/fakes/generated-site.ts: ~8 KB pages, 20 links each, self
 * canonical, robots allow all) is served by a separate process on 127.0.0.1. In the same run,
 * in interleaved rounds so machine load hits each alike:
 * - cli:        `node dist/seo.js audit <url> --json`, the shipped CLI with its loopback defaults
 *               (no tuning flags: 8 in parallel, no gap, up to 10,000 pages), the full audit;
 * - mcp:        `node dist/seo.js mcp` over real stdio, `seo_audit_site {url}` with the tool's
 *               defaults (1,000 pages on your own machine), timed from spawn to result;
 * - crawlee:    Crawlee 3.18.1 CheerioCrawler, maxConcurrency 16, links only;
 * - linkinator: linkinator 7.6.1 --recurse --concurrency 16;
 * - bare:       a bare fetch-and-parse loop (node:http keep-alive, htmlparser2, a Set), at our
 *               default concurrency: the limit of what any crawler can do here.
 * - rendered:   `node dist/seo.js audit <url> --json --render --max-pages 1000 --lab-sample 0`, the
 *               rendering mode in the local headless Chromium (CHROME_PATH or /usr/bin/chromium):
 *               1,000 pages, each fetched and rendered; its peak memory is the whole process
 *               tree's (Node and every browser process), summed as PSS from /proc, sampled every 100 ms.
 * Then the CLI alone on a 100,000-page site (`--max-pages 100000 --max-seconds 86400`), and with
 * `--large 100000,1000000` on a 1,000,000-page site after it (beyond 100,000 pages the audit keeps
 * its page summaries on disk), its pages/s as a ratio of the 100,000-page row's.
 * Whole-process wall time and peak RSS come from /usr/bin/time -v (for mcp: the server's);
 * the site server counts each crawl's requests. Ratios are printed against Crawlee and bare.
 *
 * Usage: node scripts/bench-seo-crawl.ts [--runs N] [--pages N] [--large N[,N...] (0: skip)]
 *        [--only cli,mcp,crawlee,linkinator,bare,rendered] [--help]
 * Benchmark-only deps (crawlee, linkinator) go to .bench/ (gitignored) on first use.
 * @module
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generatedSiteHandler, indexOf } from "../tests/seo/fakes/generated-site.ts";
import { DEFAULTS } from "../src/seo/crawl/bounds.ts";
import { timed } from "./bench-seo-measure.ts";
import { prepare } from "./bench-seo-others.ts";

const BENCH = resolve(".bench");
const SEO = resolve("dist/seo.js");
const CRAWLERS = ["cli", "mcp", "crawlee", "linkinator", "bare", "rendered"] as const;
/** Pages of the rendered crawl (`--rendered-pages`): a browser renders each, so a tenth of the others' site. */
const RENDERED_PAGES = Number(arg("rendered-pages", "1000"));
const USAGE = `Usage: node scripts/bench-seo-crawl.ts [--runs N] [--pages N] [--large N] [--only LIST]
  --runs N    counted runs per crawler after one warm-up, in interleaved rounds (default 3)
  --pages N   pages of the generated site (default 10000)
  --large N   then the CLI alone on an N-page site (default 100000; 0 skips); a list (100000,1000000)
              runs each in turn, the larger compared with the first
  --only LIST crawlers to run, of ${CRAWLERS.join(",")} (default all; rendered crawls ${RENDERED_PAGES} pages
              in the local headless Chromium, peak memory summed over its process tree)
  --rendered-pages N  pages of the rendered crawl (default 1000)
  --help      this text
Builds nothing: run npm run build first (dist/seo.js).
`;
type Crawler = (typeof CRAWLERS)[number];
const log = (line: string) => process.stderr.write(`bench-seo-crawl: ${line}\n`);

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

// --- the site (child mode: --serve N) ---

function serve(count: number): void {
  const handler = generatedSiteHandler(count);
  let tally = { requests: 0, unique: new Set<number>(), notFound: 0 };
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === "/__stats") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ requests: tally.requests, uniquePages: tally.unique.size, notFound: tally.notFound }));
      return;
    }
    if (url === "/__reset") {
      tally = { requests: 0, unique: new Set<number>(), notFound: 0 };
      res.end("ok");
      return;
    }
    tally.requests++;
    const i = indexOf(url, count);
    if (i >= 0) tally.unique.add(i);
    else if (url !== "/robots.txt") tally.notFound++;
    handler(req, res);
  });
  server.keepAliveTimeout = 10_000;
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  });
}

// --- running and measuring ---

interface Served {
  requests: number;
  uniquePages: number;
  notFound: number;
}

interface Run {
  wallS: number;
  rssMiB: number;
  pages: number;
  served: Served;
}

function command(name: Crawler, url: string, extra: string[]): string[] {
  const node = process.execPath;
  switch (name) {
    case "cli":
      return [node, SEO, "audit", url, "--json", ...extra];
    case "mcp":
      return [node, join(BENCH, "mcp-client.mjs"), url, SEO];
    case "crawlee":
      return [node, join(BENCH, "crawl-crawlee.mjs"), url];
    case "linkinator":
      return [node, join(BENCH, "node_modules/linkinator/build/src/cli.js"), url, "--recurse", "--concurrency", "16"];
    case "bare":
      return [node, join(BENCH, "bare.mjs"), url, String(DEFAULTS.cli["own-machine"].concurrency)];
    case "rendered":
      return [node, SEO, "audit", url, "--json", "--render", "--max-pages", String(RENDERED_PAGES), "--lab-sample", "0", ...extra];
  }
}

async function runOnce(name: Crawler, origin: string, extra: string[] = []): Promise<Run> {
  await fetch(`${origin}/__reset`);
  const cache = mkdtempSync(join(tmpdir(), "seo-bench-"));
  const env = { ...process.env, CRAWLEE_STORAGE_DIR: cache, SEO_CACHE_DIR: cache };
  try {
    const measured = await timed(command(name, `${origin}/`, extra), env, name === "rendered");
    const served = (await (await fetch(`${origin}/__stats`)).json()) as Served;
    if (name !== "mcp") return { wallS: measured.wallS, rssMiB: measured.rssMiB, pages: served.uniquePages, served };
    // the client's wall time from spawn to result; the server's own peak RSS
    const mcp = JSON.parse(measured.stdout) as { ms: number; pages: number; rssKiB: number };
    return { wallS: mcp.ms / 1000, rssMiB: mcp.rssKiB / 1024, pages: mcp.pages, served };
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

async function startSite(pages: number): Promise<{ origin: string; stop(): void }> {
  const server = spawn(process.execPath, [process.argv[1] as string, "--serve", String(pages)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const origin = await new Promise<string>((done) =>
    server.stdout.once("data", (chunk: Buffer) => done(chunk.toString().trim())),
  );
  return { origin, stop: () => server.kill() };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

interface Row {
  name: string;
  pages: number;
  wall: number;
  pps: number;
  rss: number;
}

function rowOf(name: string, runs: Run[]): Row {
  const wall = median(runs.map((r) => r.wallS));
  const pages = median(runs.map((r) => r.pages));
  return { name, pages, wall, pps: pages / wall, rss: median(runs.map((r) => r.rssMiB)) };
}

function table(rows: Row[]): string[] {
  const out = ["crawler          pages    wall s   pages/s   peak RSS MiB"];
  for (const r of rows)
    out.push(
      `${r.name.padEnd(14)} ${String(r.pages).padStart(7)} ${r.wall.toFixed(2).padStart(9)} ${r.pps.toFixed(0).padStart(9)} ${r.rss.toFixed(1).padStart(14)}`,
    );
  return out;
}

function verdicts(rows: Row[]): string[] {
  const by = (name: string) => rows.find((r) => r.name === name);
  const cli = by("cli");
  const out: string[] = [];
  if (!cli) return out;
  for (const other of rows.filter((r) => r.name !== "cli" && r.name !== "rendered" && !r.name.startsWith("cli ")))
    out.push(`cli vs ${other.name}: ${(cli.pps / other.pps).toFixed(2)}x pages/s, ${(cli.rss / other.rss).toFixed(2)}x peak RSS`);
  const crawlee = by("crawlee");
  const bare = by("bare");
  const large = rows.find((r) => r.name.startsWith("cli ") && r.pages >= 100_000);
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  if (crawlee)
    out.push(
      `targets: >= 5x Crawlee pages/s: ${met(cli.pps / crawlee.pps >= 5)}; <= 1/3 Crawlee RSS: ${met(cli.rss / crawlee.rss <= 1 / 3)}`,
    );
  if (bare) out.push(`target: >= 0.5x the bare loop's pages/s: ${met(cli.pps / bare.pps >= 0.5)}`);
  if (large) out.push(`target: <= 512 MiB peak RSS at ${large.pages} pages: ${met(large.rss <= 512)}`);
  const million = rows.find((r) => r.name.startsWith("cli ") && r.pages >= 1_000_000);
  if (large && million)
    out.push(
      `${million.pages} pages (on disk) vs ${large.pages}: ${(million.pps / large.pps).toFixed(2)}x pages/s, ${(million.rss / large.rss).toFixed(2)}x peak RSS; targets: >= 0.8x pages/s: ${met(million.pps / large.pps >= 0.8)}; <= 1024 MiB peak RSS: ${met(million.rss <= 1024)}`,
    );
  return out;
}

async function rounds(names: Crawler[], origin: string, pages: number, runs: number): Promise<Map<string, Run[]>> {
  const results = new Map<string, Run[]>(names.map((name) => [name, []]));
  for (let round = 0; round <= runs; round++) {
    for (const name of names) {
      const run = await runOnce(name, origin);
      log(
        `${name} ${round === 0 ? "warm-up" : `run ${round}`}: ${run.wallS.toFixed(2)} s, ${run.rssMiB.toFixed(1)} MiB, ${run.pages} pages; served ${run.served.uniquePages} unique pages in ${run.served.requests} requests`,
      );
      const expected =
        name === "mcp" ? DEFAULTS.tool["own-machine"].maxPages : name === "rendered" ? RENDERED_PAGES : pages;
      if (run.served.uniquePages !== Math.min(pages, expected))
        log(`WARNING: ${name} fetched ${run.served.uniquePages} of ${Math.min(pages, expected)} pages`);
      if (round > 0) results.get(name)?.push(run);
    }
  }
  return results;
}

async function large(count: number): Promise<Row> {
  const site = await startSite(count);
  try {
    log(`site of ${count} pages at ${site.origin}: the CLI with --max-pages ${count}, one run`);
    // No time bound: a million pages outlast the CLI's default 600 s on a shared machine.
    const run = await runOnce("cli", site.origin, ["--max-pages", String(count), "--max-seconds", "86400"]);
    log(`cli at ${count}: ${run.wallS.toFixed(2)} s, ${run.rssMiB.toFixed(1)} MiB, ${run.pages} pages`);
    return rowOf(`cli ${count}`, [run]);
  } finally {
    site.stop();
  }
}

async function main(): Promise<void> {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    process.stdout.write(USAGE);
    return;
  }
  const runs = Number(arg("runs", "3"));
  const pages = Number(arg("pages", "10000"));
  const largeList = arg("large", "100000").split(",").map(Number);
  const largePages = Math.min(...largeList);
  const only = arg("only", CRAWLERS.join(",")).split(",") as Crawler[];
  const unknown = only.filter((name) => !CRAWLERS.includes(name));
  if (unknown.length > 0 || !(runs >= 1) || !(pages >= 2) || !(largePages >= 0)) {
    log(`usage: --runs N (>= 1) --pages N (>= 2) --large N (0 skips) --only ${CRAWLERS.join(",")} (unknown: ${unknown.join(", ") || "none"})`);
    process.exit(2);
  }
  if (only.some((name) => name === "crawlee" || name === "linkinator" || name === "bare" || name === "mcp")) await prepare(BENCH, log);
  const site = await startSite(pages);
  log(`site of ${pages} pages at ${site.origin}; ${runs} runs after 1 warm-up per crawler, in rounds`);
  let results: Map<string, Run[]>;
  try {
    results = await rounds(only, site.origin, pages, runs);
  } finally {
    site.stop();
  }
  const rows = [...results].map(([name, list]) => rowOf(name, list));
  if (largePages > 0 && only.includes("cli")) for (const count of largeList) rows.push(await large(count));
  const note = rows.some((r) => r.name === "rendered")
    ? ["rendered: every page fetched and rendered in headless Chromium; its memory is the PSS of Node and every browser process, summed"]
    : [];
  process.stdout.write(`${[...table(rows), ...verdicts(rows), ...note].join("\n")}\n`);
}

if (process.argv[2] === "--serve") serve(Number(process.argv[3] ?? 10000));
else await main();
