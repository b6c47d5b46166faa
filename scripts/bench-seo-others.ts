/**
 * The crawlers `scripts/bench-seo-crawl.ts` compares ours with (Crawlee, linkinator, a bare
 * fetch-and-parse loop) and its MCP client, written into .bench/ (gitignored) on first use.
 * @module
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const CRAWLEE_ENTRY = `
import { CheerioCrawler, Configuration, log, LogLevel } from "crawlee";
log.setLevel(LogLevel.WARNING);
const config = new Configuration({ persistStorage: false, purgeOnStart: true });
const crawler = new CheerioCrawler({
  maxConcurrency: 16, respectRobotsTxtFile: false, sameDomainDelaySecs: 0, maxRequestRetries: 0,
  async requestHandler({ enqueueLinks }) { await enqueueLinks({ strategy: "same-hostname" }); },
}, config);
await crawler.run([process.argv[2]]);
`;

const BARE_ENTRY = `
import { Agent, request } from "node:http";
import { Parser } from "htmlparser2";
const [start, concurrency] = [process.argv[2], Number(process.argv[3])];
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const origin = new URL(start).origin;
const seen = new Set([start]);
const queue = [start];
let head = 0;
let active = 0;
const get = (url) => new Promise((done, fail) => {
  request(url, { agent }, (res) => {
    const links = [];
    const parser = new Parser({ onopentag(name, attrs) { if (name === "a" && attrs.href) links.push(attrs.href); } }, { decodeEntities: true });
    res.setEncoding("utf8");
    res.on("data", (chunk) => parser.write(chunk));
    res.on("end", () => { parser.end(); done(links); });
    res.on("error", fail);
  }).on("error", fail).end();
});
await new Promise((finished) => {
  const pump = () => {
    while (active < concurrency && head < queue.length) {
      const url = queue[head++];
      active++;
      get(url).then((links) => {
        for (const href of links) {
          const next = new URL(href, url);
          next.hash = "";
          if (next.origin === origin && !seen.has(next.href)) { seen.add(next.href); queue.push(next.href); }
        }
      }, () => {}).finally(() => { active--; pump(); });
    }
    if (active === 0 && head >= queue.length) finished();
  };
  pump();
});
agent.destroy();
`;

const MCP_ENTRY = `
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const [url, seo] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: "/usr/bin/time", args: ["-v", process.execPath, seo, "mcp"], env: process.env, stderr: "pipe" });
let err = "";
transport.stderr.on("data", (chunk) => { err += chunk; });
const client = new Client({ name: "bench", version: "1" });
const started = performance.now();
await client.connect(transport);
const result = await client.callTool({ name: "seo_audit_site", arguments: { url } }, undefined, { timeout: 3_600_000 });
const ms = performance.now() - started;
await client.close();
await new Promise((done) => setTimeout(done, 200));
const rss = /Maximum resident set size \\(kbytes\\): (\\d+)/.exec(err);
if (result.isError || !rss) { process.stderr.write(err + JSON.stringify(result.content)); process.exit(1); }
process.stdout.write(JSON.stringify({ ms, pages: result.structuredContent.summary.pages_crawled.value, rssKiB: Number(rss[1]) }) + "\\n");
`;

/** Installs Crawlee and linkinator into `bench`, writes and bundles their entries and ours, and builds dist/seo.js. */
export async function prepare(bench: string, log: (line: string) => void): Promise<void> {
  mkdirSync(bench, { recursive: true });
  if (!existsSync(join(bench, "node_modules/crawlee")) || !existsSync(join(bench, "node_modules/linkinator"))) {
    log("installing crawlee and linkinator into .bench/ (benchmark only)");
    writeFileSync(
      join(bench, "package.json"),
      JSON.stringify({ name: "seo-bench", private: true, type: "module", overrides: { linkedom: "0.18.14" } }),
    );
    execFileSync(
      "npm",
      ["install", "--prefix", bench, "--no-audit", "--no-fund", "crawlee@3.18.1", "linkinator@7.6.1"],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
  }
  writeFileSync(join(bench, "crawl-crawlee.mjs"), CRAWLEE_ENTRY);
  const { build } = await import("esbuild");
  // Resolved from the repository root: our htmlparser2 and MCP SDK, not what Crawlee brought into .bench/.
  for (const [name, contents] of [["bare", BARE_ENTRY], ["mcp-client", MCP_ENTRY]] as const) {
    await build({
      stdin: { contents, resolveDir: resolve("."), sourcefile: `${name}-entry.mjs`, loader: "js" },
      outfile: join(bench, `${name}.mjs`),
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node22",
      banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
      logLevel: "warning",
    });
  }
  log("building dist/seo.js (the shipped bundle)");
  execFileSync(process.execPath, ["scripts/build.ts", "seo"], { stdio: ["ignore", "ignore", "inherit"] });
}
