/**
 * The built `seo-audit-mcp` bin (dist/seo.js, what packages/seo-audit-mcp ships) walked the way
 * a new user meets it: help and version at the top and per command, an unknown flag, bad
 * input, a site that is down, a taken port, `audit --fail-on` as a CI gate, and Ctrl-C during
 * a long audit of a slow site on 127.0.0.1 (exit 130, the partial report kept). Every failure
 * is one stderr line, `CODE: what happened; what to do`, naming the CLI's own flags.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { serveSite, type TestSite } from "../../../seo/crawl/site-server.ts";
import { BUNDLE, ensureBundle } from "../../../seo/fakes/stdio.ts";

const cache = mkdtempSync(join(tmpdir(), "seo-bin-"));
const env = { PATH: process.env.PATH ?? "", SEO_CACHE_DIR: cache };
let site: TestSite;

const page = (title: string, links: string[]) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="${title} of the bin test site"></head>` +
  `<body><h1>${title}</h1>${links.map((href) => `<a href="${href}">${href}</a>`).join(" ")}</body></html>`;

/**
 * /clean/ links to one good page; /broken/ links to a page that answers 500 (a critical
 * finding); /slow/<n> answers after 100 ms and links to three more, without end: an audit of
 * it runs until its bounds, long enough to be interrupted.
 */
before(async () => {
  ensureBundle();
  site = await serveSite(async (req, res) => {
    const path = req.url ?? "/";
    const html = (body: string) => void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
    if (path === "/clean/") return html(page("Clean start", ["/clean/a"]));
    if (path === "/clean/a") return html(page("Clean page", ["/clean/"]));
    if (path === "/broken/") return html(page("Broken start", ["/broken/500"]));
    if (path === "/broken/500") return void res.writeHead(500).end("server error");
    const slow = /^\/slow\/(\d+)$/.exec(path);
    if (!slow) return void res.writeHead(404).end();
    await new Promise((done) => setTimeout(done, 100));
    const n = Number(slow[1]);
    return html(page(`Slow page ${n}`, [1, 2, 3].map((i) => `/slow/${n * 3 + i}`)));
  });
});
after(async () => {
  await site.close();
  rmSync(cache, { recursive: true, force: true });
});

/**
 * Runs the bin to its end. Not spawnSync: the test sites answer from this process, and a
 * blocked event loop would leave the audit waiting for them.
 */
function seo(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BUNDLE, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** The last stderr line: the registry code, what happened, and after "; " what to do. */
function assertFailureLine(stderr: string, code: string): string {
  const line = stderr.trimEnd().split("\n").at(-1) ?? "";
  assert.match(line, new RegExp(`^${code}: .+; .+$`), stderr);
  return line;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const port = (probe.address() as { port: number }).port;
  await new Promise((done) => probe.close(done));
  return port;
}

test("seo-audit-mcp --help and --version answer on stdout with exit 0, at the top and per command", async () => {
  const help = await seo("--help");
  assert.equal(help.code, 0);
  assert.match(help.stdout, /seo-audit-mcp mcp\s+serve the five SEO tools/);
  assert.match(help.stdout, /130 interrupted \(Ctrl-C\)/);
  for (const args of [["--version"], ["-v"], ["mcp", "--version"], ["audit", "--version"], ["gateway", "--version"]]) {
    const version = await seo(...args);
    assert.equal(version.code, 0, args.join(" "));
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/, args.join(" "));
  }
  for (const [command, shows] of [["mcp", /^Usage: seo-audit-mcp mcp\n/], ["audit", /--fail-on SEVERITY/], ["gateway", /--allow-audit/]] as const) {
    const commandHelp = await seo(command, "--help");
    assert.equal(commandHelp.code, 0, command);
    assert.match(commandHelp.stdout, shows, command);
    assert.equal(commandHelp.stderr, "", command);
  }
});

test("seo-audit-mcp: an unknown flag or command exits 2 with one line naming the fix", async () => {
  const flag = await seo("audit", `${site.origin}/clean/`, "--frobnicate");
  assert.equal(flag.code, 2);
  assert.equal(flag.stdout, "");
  assert.equal(flag.stderr, "INVALID_USAGE: unknown option --frobnicate; see seo-audit-mcp audit --help\n");
  const gateway = await seo("gateway", "--verbose");
  assert.equal(gateway.stderr, "INVALID_USAGE: unknown option --verbose; see seo-audit-mcp gateway --help\n");
  const mcp = await seo("mcp", "--stdio");
  assert.equal(mcp.code, 2);
  assert.equal(mcp.stderr, "INVALID_USAGE: unknown option --stdio; see seo-audit-mcp mcp --help\n");
  const command = await seo("serve");
  assert.equal(command.code, 2);
  assert.match(command.stderr, /^INVALID_USAGE: unknown command "serve"; the commands are mcp, audit and gateway \(see seo-audit-mcp --help\)\n$/);
  const failOn = await seo("audit", `${site.origin}/clean/`, "--fail-on", "severe");
  assert.equal(failOn.code, 2);
  assert.equal(failOn.stderr, 'INVALID_USAGE: --fail-on takes critical, high, medium, low (got "severe"); see seo-audit-mcp audit --help\n');
});

test("seo-audit-mcp audit: bad input and a site that is down are one line with the next step", async () => {
  const url = await seo("audit", "example.com");
  assert.equal(url.code, 1);
  assertFailureLine(url.stderr, "INVALID_URL");
  const port = await freePort();
  const down = await seo("audit", `http://127.0.0.1:${port}/`);
  assert.equal(down.code, 1);
  const line = assertFailureLine(down.stderr, "UNREACHABLE");
  assert.match(line, new RegExp(`could not reach http://127\\.0\\.0\\.1:${port}: connection refused: nothing is listening there`));
  assert.match(line, /; check the URL and that the server is running/);
  assert.doesNotMatch(down.stderr, /disallowed|RFC 9309/, "a refused connection is not a robots.txt rule");
});

test("seo-audit-mcp gateway on a port that is taken prints one line naming --port, exit 2", async () => {
  const taken = createServer();
  await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done));
  try {
    const port = String((taken.address() as { port: number }).port);
    const run = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, [BUNDLE, "gateway", "--port", port], { env });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
      child.on("close", (code) => done({ code, stderr }));
    });
    assert.equal(run.code, 2);
    assert.equal(run.stderr.split("\n").filter(Boolean).length, 1, run.stderr);
    assert.match(assertFailureLine(run.stderr, "INVALID_CONFIG"), new RegExp(`127\\.0\\.0\\.1:${port} is already in use .*another port with --port`));
    assert.doesNotMatch(run.stderr, /EADDRINUSE/);
  } finally {
    await new Promise((done) => taken.close(done));
  }
});

test("audit --fail-on exits 1 when a finding at or above the severity is present, else 0", async () => {
  const broken = await seo("audit", `${site.origin}/broken/`, "--no-sitemaps", "--fail-on", "critical");
  assert.equal(broken.code, 1, broken.stderr);
  assert.match(broken.stderr, /^--fail-on critical: failed, 1 finding\(s\) critical or worse: http-5xx \(critical\); fix them, or raise --fail-on$/m);
  assert.match(broken.stdout, /^SEO audit of /, "the report is printed before the verdict");
  const gateOff = await seo("audit", `${site.origin}/broken/`, "--no-sitemaps");
  assert.equal(gateOff.code, 0, "without --fail-on a finished audit exits 0, whatever it found");
  const clean = await seo("audit", `${site.origin}/clean/`, "--no-sitemaps", "--fail-on", "critical");
  assert.equal(clean.code, 0, clean.stderr);
  assert.match(clean.stderr, /^--fail-on critical: passed, no finding is critical or worse$/m);
});

test("Ctrl-C during a long audit exits 130, keeps the partial report and says it was cancelled", async () => {
  const child = spawn(process.execPath, [BUNDLE, "audit", `${site.origin}/slow/0`, "--no-sitemaps"], { env });
  let stdout = "";
  let stderr = "";
  const closed = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    // One Ctrl-C once the crawl is under way, as a user at a terminal would press it.
    if (/crawling: /.test(stderr) && !child.killed) child.kill("SIGINT");
  });
  const code = await closed;
  clearTimeout(timer);
  assert.equal(code, 130, stderr);
  assert.match(stderr, /^stopped: \d+ pages /m);
  assert.match(stderr, /^audit: cancelled by Ctrl-C after \d+ page\(s\); the report above is partial; run the command again to audit the whole site$/m);
  assert.match(stdout, /^SEO audit of http:\/\/127\.0\.0\.1:\d+\/slow\/0: \d+ pages crawled/);
  assert.match(stdout, /^CANCELLED: a partial audit of the pages crawled before it was stopped/m);
  assert.doesNotMatch(stdout + stderr, /raise the bounds|response_format|max_seconds/, "no advice meant for a bounded crawl or for agents");
});
