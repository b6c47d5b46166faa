/**
 * Crawl benchmark (method of ../shared/research/anchors-perf.md §1): a generated site of
 * 10,000 pages (~8 KB, 20 links each, mulberry32 seed 42, canonical to self, robots allow all)
 * served by a separate process; our crawler running the FULL audit vs Crawlee's CheerioCrawler
 * and linkinator on the same site in the same run, all at concurrency 16 with politeness off
 * (loopback). Whole-process wall time and peak RSS come from /usr/bin/time -v; the site server
 * counts each crawl's requests. Ratios are printed against Crawlee.
 *
 * Usage: node scripts/bench-seo-crawl.ts [--runs N] [--pages N] [--only ours,crawlee,linkinator]
 * Benchmark-only deps (crawlee, linkinator) go to .bench/ (gitignored) on first use.
 * @module
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const BENCH = resolve(".bench");
const log = (line: string) => process.stderr.write(`bench-seo-crawl: ${line}\n`);

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

// --- the site (child mode: --serve) ---

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LOREM =
  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. ";

function buildSite(origin: string, count: number): Map<string, Buffer> {
  const random = mulberry32(42);
  const pages = new Map<string, Buffer>();
  const pathOf = (i: number) => (i === 0 ? "/" : `/p/${i}`);
  for (let i = 0; i < count; i++) {
    const targets = new Set<number>();
    if (i + 1 < count) targets.add(i + 1);
    while (targets.size < Math.min(20, count - 1)) targets.add(1 + Math.floor(random() * (count - 1)));
    const links = [...targets].map((t) => `<li><a href="${pathOf(t)}">Page ${t}</a></li>`).join("");
    const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Generated page number ${i}</title><link rel="canonical" href="${origin}${pathOf(i)}"></head><body><h1>Page ${i}</h1><ul>${links}</ul>`;
    let body = head;
    while (body.length < 7950) body += `<p>${LOREM}</p>`;
    pages.set(pathOf(i), Buffer.from(`${body}</body></html>`));
  }
  return pages;
}

function serve(count: number): void {
  let pages = new Map<string, Buffer>();
  let tally = { requests: 0, unique: new Set<string>(), notFound: 0, first: 0, last: 0 };
  const reset = () => {
    tally = { requests: 0, unique: new Set<string>(), notFound: 0, first: 0, last: 0 };
  };
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === "/__stats") {
      res.writeHead(200, { "content-type": "application/json" });
      const { unique, ...rest } = tally;
      res.end(JSON.stringify({ ...rest, uniquePages: unique.size }));
      return;
    }
    if (url === "/__reset") {
      reset();
      res.end("ok");
      return;
    }
    const now = performance.now();
    tally.requests++;
    tally.first ||= now;
    tally.last = now;
    if (url === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain", "content-length": 25 });
      res.end("User-agent: *\nAllow: /\n\n\n");
      return;
    }
    const page = pages.get(url);
    if (!page) {
      tally.notFound++;
      res.writeHead(404, { "content-type": "text/plain", "content-length": 9 });
      res.end("not found");
      return;
    }
    tally.unique.add(url);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": page.byteLength });
    res.end(page);
  });
  server.keepAliveTimeout = 10_000;
  server.listen(0, "127.0.0.1", () => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    pages = buildSite(origin, count);
    process.stdout.write(`${origin}\n`);
  });
}

// --- the crawlers ---

const OURS_ENTRY = `
import { runAudit } from ${JSON.stringify(resolve("src/seo/audit/run-audit.ts"))};
import { defaultBounds } from ${JSON.stringify(resolve("src/seo/crawl/bounds.ts"))};
import { nodeHttpRequest } from ${JSON.stringify(resolve("shim/node/crawl-request.ts"))};
const http = nodeHttpRequest(16);
const [url, pages] = process.argv.slice(2);
const started = performance.now();
const report = await runAudit(url, {
  fetch, request: http.request, now: () => new Date(), politenessOff: true,
  bounds: defaultBounds({ maxPages: Number(pages), maxDepth: 1e6, maxSeconds: 600, concurrency: 16, maxResources: 0 }),
});
globalThis.gc?.();
process.stdout.write(JSON.stringify({ ms: performance.now() - started, pages: report.stats.pages_crawled, findings: report.findings.map((f) => f.id + ":" + f.count), mem: Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 1048576)])) }) + "\\n");
// Idle keep-alive sockets would hold the process open for seconds; a CLI exits when done.
process.exit(0);
`;

const CRAWLEE_ENTRY = `
import { CheerioCrawler, Configuration, log, LogLevel } from "crawlee";
log.setLevel(LogLevel.WARNING);
const started = performance.now();
const config = new Configuration({ persistStorage: false, purgeOnStart: true });
const crawler = new CheerioCrawler({
  maxConcurrency: 16, respectRobotsTxtFile: false, sameDomainDelaySecs: 0, maxRequestRetries: 0,
  async requestHandler({ enqueueLinks }) { await enqueueLinks({ strategy: "same-hostname" }); },
}, config);
await crawler.run([process.argv[2]]);
process.stdout.write(JSON.stringify({ ms: performance.now() - started }) + "\\n");
`;

async function prepare(): Promise<void> {
  mkdirSync(BENCH, { recursive: true });
  if (
    !existsSync(join(BENCH, "node_modules/crawlee")) ||
    !existsSync(join(BENCH, "node_modules/linkinator"))
  ) {
    log("installing crawlee and linkinator into .bench/ (benchmark only)");
    writeFileSync(
      join(BENCH, "package.json"),
      JSON.stringify({
        name: "seo-bench",
        private: true,
        type: "module",
        overrides: { linkedom: "0.18.14" },
      }),
    );
    execFileSync(
      "npm",
      ["install", "--prefix", BENCH, "--no-audit", "--no-fund", "crawlee@3.18.1", "linkinator@7.6.1"],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
  }
  writeFileSync(join(BENCH, "crawl-crawlee.mjs"), CRAWLEE_ENTRY);
  writeFileSync(join(BENCH, "seo-crawl-entry.ts"), OURS_ENTRY);
  const { build } = await import("esbuild");
  await build({
    entryPoints: [join(BENCH, "seo-crawl-entry.ts")],
    outfile: join(BENCH, "seo-crawl.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22",
    logLevel: "warning",
  });
}

interface Run {
  wallS: number;
  rssMiB: number;
  served: { requests: number; uniquePages: number; notFound: number; first: number; last: number };
}

function timed(command: string[], env: NodeJS.ProcessEnv): Promise<{ wallS: number; rssMiB: number }> {
  return new Promise((done, fail) => {
    const child = spawn("/usr/bin/time", ["-v", ...command], { stdio: ["ignore", "ignore", "pipe"], env });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("error", fail);
    child.on("close", (code) => {
      const wall = /Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)/.exec(err);
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
      if (code !== 0 || !wall || !rss)
        return fail(new Error(`${command.join(" ")} failed (${code}): ${err.slice(-800)}`));
      const wallS = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
      done({ wallS, rssMiB: Number(rss[1]) / 1024 });
    });
  });
}

async function runOnce(name: string, origin: string, pages: number): Promise<Run> {
  await fetch(`${origin}/__reset`);
  const node = process.execPath;
  const env = { ...process.env, CRAWLEE_STORAGE_DIR: mkdtempSync(join(tmpdir(), "crawlee-")) };
  const command =
    name === "ours"
      ? [node, join(BENCH, "seo-crawl.mjs"), `${origin}/`, String(pages)]
      : name === "crawlee"
        ? [node, join(BENCH, "crawl-crawlee.mjs"), `${origin}/`]
        : [
            node,
            join(BENCH, "node_modules/linkinator/build/src/cli.js"),
            `${origin}/`,
            "--recurse",
            "--concurrency",
            "16",
          ];
  const measured = await timed(command, env);
  const served = (await (await fetch(`${origin}/__stats`)).json()) as Run["served"];
  return { ...measured, served };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function main(): Promise<void> {
  const runs = Number(arg("runs", "3"));
  const pages = Number(arg("pages", "10000"));
  const only = arg("only", "ours,crawlee,linkinator").split(",");
  const unknown = only.filter((name) => !["ours", "crawlee", "linkinator"].includes(name));
  if (unknown.length > 0 || !(runs >= 1) || !(pages >= 2)) {
    log(
      `usage: --runs N (>= 1) --pages N (>= 2) --only ours,crawlee,linkinator (unknown: ${unknown.join(", ") || "none"})`,
    );
    process.exit(2);
  }
  await prepare();
  const server = spawn(process.execPath, [process.argv[1] as string, "--serve", String(pages)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const origin = await new Promise<string>((done) =>
    server.stdout.once("data", (chunk: Buffer) => done(chunk.toString().trim())),
  );
  log(`site of ${pages} pages at ${origin}; ${runs} runs after 1 warm-up per crawler`);
  const results = new Map<string, Run[]>(only.map((name) => [name, []]));
  try {
    // Rounds of one run per crawler, so changing machine load hits every crawler alike.
    for (let round = 0; round <= runs; round++) {
      for (const name of only) {
        const run = await runOnce(name, origin, pages);
        log(
          `${name} ${round === 0 ? "warm-up" : `run ${round}`}: ${run.wallS.toFixed(2)} s, ${run.rssMiB.toFixed(1)} MiB, served ${run.served.uniquePages} unique pages in ${run.served.requests} requests`,
        );
        if (run.served.uniquePages !== pages)
          log(`WARNING: ${name} fetched ${run.served.uniquePages} of ${pages} pages`);
        if (round > 0) results.get(name)?.push(run);
      }
    }
  } finally {
    server.kill();
  }
  report(results, pages);
  await coldStart();
}

function report(results: Map<string, Run[]>, pages: number): void {
  const rows = [...results].map(([name, runs]) => {
    const wall = median(runs.map((r) => r.wallS));
    return { name, wall, pps: pages / wall, rss: median(runs.map((r) => r.rssMiB)) };
  });
  const out = ["crawler      wall s   pages/s   peak RSS MiB"];
  for (const r of rows)
    out.push(
      `${r.name.padEnd(12)} ${r.wall.toFixed(2).padStart(6)} ${r.pps.toFixed(0).padStart(9)} ${r.rss.toFixed(1).padStart(14)}`,
    );
  const ours = rows.find((r) => r.name === "ours");
  for (const other of rows.filter((r) => r.name !== "ours")) {
    if (!ours) break;
    out.push(
      `ours vs ${other.name}: ${(ours.pps / other.pps).toFixed(2)}x pages/s, ${(ours.rss / other.rss).toFixed(2)}x peak RSS`,
    );
  }
  if (ours && results.has("crawlee")) {
    const crawlee = rows.find((r) => r.name === "crawlee") as (typeof rows)[number];
    out.push(
      `targets: >= 5x Crawlee pages/s: ${ours.pps / crawlee.pps >= 5 ? "met" : "NOT met"}; <= 1/3 Crawlee RSS: ${ours.rss / crawlee.rss <= 1 / 3 ? "met" : "NOT met"}`,
    );
  }
  process.stdout.write(`${out.join("\n")}\n`);
}

interface ColdStartResult {
  median: number;
  runs: number[];
  tools: number;
}

/** The stdio cold start, with the SEO server helper's `measureColdStart` when it is there. */
async function coldStart(): Promise<void> {
  const path = resolve("scripts/bench-seo-coldstart.ts");
  if (!existsSync(path)) {
    log("scripts/bench-seo-coldstart.ts not found: stdio cold start not measured here");
    return;
  }
  const mod = (await import(path)) as {
    measureColdStart?: (
      command: string,
      args: string[],
      options?: { runs?: number },
    ) => Promise<ColdStartResult>;
  };
  if (typeof mod.measureColdStart !== "function") {
    log("bench-seo-coldstart.ts exports no measureColdStart(): skipped");
    return;
  }
  log("building dist/seo.js for the cold-start measurement");
  execFileSync(process.execPath, ["scripts/build.ts", "seo"], { stdio: ["ignore", "ignore", "inherit"] });
  const result = await mod.measureColdStart(process.execPath, ["dist/seo.js", "mcp"], { runs: 10 });
  const sorted = [...result.runs].sort((a, b) => a - b);
  process.stdout.write(
    `stdio cold start to tools/list (${result.tools} tools, 10 runs): median ${result.median.toFixed(1)} ms, min ${sorted[0]?.toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms (target <= 100 ms: ${result.median <= 100 ? "met" : "NOT met"})\n`,
  );
}

if (process.argv[2] === "--serve") serve(Number(process.argv[3] ?? 10000));
else await main();
