/**
 * The built `charging` bin (dist/charging-cli.js, what packages/charging-sites ships) walked
 * the way a new user meets it: help and version at the top and per command, an unknown flag,
 * a bad input, a port that is taken, and Ctrl-C on the long-running `serve`. Every failure is
 * one stderr line, `CODE: what happened; what to do`, in the CLI's own words.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import { before, test } from "node:test";
import { ensureBuilt } from "../../../charging/built.ts";

before(() => ensureBuilt());

const BIN = "dist/charging-cli.js";

function charging(...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? "" },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** One line on stderr: the registry code, what happened, and after "; " what to do. */
function assertOneLine(stderr: string, code: string): void {
  assert.match(stderr, new RegExp(`^${code}: [^\\n]+; [^\\n]+\\n$`), stderr);
  assert.doesNotMatch(stderr, /\/api\/v1|GET |x-api-key/, "a CLI user is never sent to an HTTP route");
}

test("charging --help and --version answer on stdout with exit 0, at the top and per command", () => {
  const help = charging("--help");
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^charging: open-data EV charging sites/);
  assert.match(help.stdout, /charging --version \| --help \| <command> --help/);
  assert.equal(help.stderr, "");
  for (const args of [["--version"], ["-v"], ["search", "--version"], ["serve", "--version"]]) {
    const version = charging(...args);
    assert.equal(version.code, 0, args.join(" "));
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/, args.join(" "));
  }
  const search = charging("search", "--help");
  assert.equal(search.code, 0);
  assert.match(search.stdout, /^Usage: charging search /);
  assert.match(search.stdout, /--min-power KW/);
  assert.doesNotMatch(search.stdout, /--port N/, "only the command's own flags");
  const serve = charging("serve", "--help");
  assert.equal(serve.code, 0);
  assert.match(serve.stdout, /^Usage: charging serve /);
  assert.match(serve.stdout, /Ctrl-C \(exit 130\)/);
  for (const args of [["import", "--help"], ["import", "--bogus", "--help"]]) {
    const importHelp = charging(...args);
    assert.equal(importHelp.code, 0, "--help wins over a bad flag beside it");
    assert.match(importHelp.stdout, /usage: charging import <files\.\.\.>/);
  }
});

test("charging: an unknown flag exits 2 with one line naming the command's --help", () => {
  const unknown = charging("search", "--colour", "red");
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stdout, "");
  assert.equal(unknown.stderr, "INVALID_USAGE: unknown option --colour; see charging search --help\n");
  const first = charging("--limit", "3");
  assert.equal(first.code, 2);
  assertOneLine(first.stderr, "INVALID_USAGE");
  assert.match(first.stderr, /put the command first: charging search --limit 3/);
  const suggested = charging("search", "--limit", "3");
  assert.equal(suggested.code, 0, "the suggested command works");
});

test("charging: a bad input is one line in the CLI's words, never an HTTP route", async () => {
  // A port that was free a moment ago: nothing listens there (fetch refuses port 1 outright).
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const closedPort = (probe.address() as { port: number }).port;
  await new Promise((done) => probe.close(done));
  const site = charging("site", "foo");
  assert.equal(site.code, 1);
  assert.equal(site.stdout, "");
  assertOneLine(site.stderr, "NOT_FOUND");
  assert.match(site.stderr, /no open site has id "foo"/);
  assert.match(site.stderr, /find one with charging search/);
  const limit = charging("search", "--limit", "500");
  assert.equal(limit.code, 2);
  assertOneLine(limit.stderr, "INVALID_ARGUMENTS");
  assert.match(limit.stderr, /--limit must be an integer from 1 to 100; see charging search --help/);
  const down = charging("search", "--url", `http://127.0.0.1:${closedPort}`);
  assert.equal(down.code, 1);
  assertOneLine(down.stderr, "UNREACHABLE");
  assert.match(down.stderr, /ECONNREFUSED; check --url and that the server is running/);
});

test("charging serve on a port that is taken prints one line naming --port, exit 2", async () => {
  const taken: Server = createServer();
  await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done));
  try {
    const port = (taken.address() as { port: number }).port;
    const run = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, [BIN, "serve", "--port", String(port)], { env: { PATH: process.env.PATH ?? "" } });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
      child.on("close", (code) => done({ code, stderr }));
    });
    assert.equal(run.code, 2);
    assertOneLine(run.stderr, "INVALID_CONFIG");
    assert.match(run.stderr, new RegExp(`127\\.0\\.0\\.1:${port} is already in use by another process; .*another port with --port`));
    assert.doesNotMatch(run.stderr, /EADDRINUSE/);
  } finally {
    await new Promise((done) => taken.close(done));
  }
});

test("Ctrl-C on charging serve drains, says it was interrupted and exits 130", async () => {
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0"], { env: { PATH: process.env.PATH ?? "" } });
  let stderr = "";
  const closed = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    // Interrupt only once it listens: the long run is under way.
    if (/listening on http:\/\/\S+/.test(stderr) && child.exitCode === null && !child.killed) child.kill("SIGINT");
  });
  const code = await closed;
  clearTimeout(timer);
  assert.equal(code, 130, stderr);
  assert.match(stderr, /^SIGINT: interrupted \(Ctrl-C\), draining connections, then exiting with 130$/m);
});
