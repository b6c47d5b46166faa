/** The built CLI (`node dist/charging-cli.js ...`) as a child process. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { startBuilt, stop } from "../../../../scripts/smoke.ts";
import { DATA_DIR } from "../../data/helpers.ts";
import { ensureBuilt } from "../../built.ts";

before(() => ensureBuilt());

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, ["dist/charging-cli.js", ...args], {
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test("charging --help prints usage on stdout and exits 0; no command exits 2 with one line", () => {
  const help = cli("--help");
  assert.equal(help.code, 0);
  assert.match(help.stdout, /charging search \[filters\]/);
  assert.match(help.stdout, /--connector TEXT/);
  assert.equal(help.stderr, "");
  const none = cli();
  assert.equal(none.code, 2);
  assert.equal(none.stdout, "");
  assert.match(none.stderr, /^INVALID_USAGE: a command is required: .*; see charging --help\n$/);
});

test("charging search prints a table of the embedded data; --json prints the API answer", () => {
  const table = cli("search", "--connector", "chademo", "--limit", "4");
  assert.equal(table.code, 0, table.stderr);
  const lines = table.stdout.trim().split("\n");
  assert.match(lines[0] as string, /^ID\s+NAME\s+KW\s+CONNECTORS\s+STATUS\s+PLACE$/);
  assert.equal(lines.filter((l) => /^(ocm|osm):/.test(l)).length, 4);
  assert.ok(lines.slice(1, 5).every((l) => /chademo/.test(l)));
  assert.match(table.stdout, /^sites 1-4 of \d+$/m);
  const json = cli(
    "search",
    "--bbox",
    "-9.2,38.7,-9.0,38.9",
    "--min-power",
    "20",
    "--open-only",
    "--offset",
    "1",
    "--json",
  );
  assert.equal(json.code, 0, json.stderr);
  const body = JSON.parse(json.stdout) as {
    data: { status: string; maxPowerKw: number }[];
    page: { offset: number };
  };
  assert.equal(body.page.offset, 1);
  assert.ok(body.data.every((s) => s.status === "AVAILABLE" && s.maxPowerKw >= 20));
  const near = cli("search", "--near", "38.72,-9.14", "--radius", "3", "--limit", "2");
  assert.equal(near.code, 0, near.stderr);
  assert.match(near.stdout, /KM/);
});

test("charging site and status print one record; unknown or closed ids exit 1", () => {
  const site = cli("site", "osm:node/1537912651");
  assert.equal(site.code, 0, site.stderr);
  assert.match(site.stdout, /^id\s+osm:node\/1537912651$/m);
  assert.match(site.stdout, /^licence\s+ODbL-1\.0$/m);
  const status = cli("status", "ocm:2388", "--json");
  assert.equal(status.code, 0);
  assert.equal((JSON.parse(status.stdout) as { data: { stale: boolean } }).data.stale, true);
  const closed = cli("site", "ocm:5452");
  assert.equal(closed.code, 1);
  assert.equal(closed.stdout, "");
  assert.match(closed.stderr, /NOT_FOUND/);
});

test("bad flags exit 2 with a clear message on stderr", () => {
  for (const [args, message] of [
    [["search", "--limit", "500"], /--limit must be an integer from 1 to 100/],
    [["search", "--colour", "red"], /unknown option --colour/],
    [["status"], /status takes exactly one site id/],
  ] as const) {
    const run = cli(...args);
    assert.equal(run.code, 2, args.join(" "));
    assert.equal(run.stdout, "");
    assert.match(run.stderr, message);
  }
});

test("charging --url talks to a running server, with CHARGING_API_KEY as x-api-key", async () => {
  const key = "cli-test-key-0123456789";
  const server = await startBuilt({ CHARGING_API_KEYS: key });
  try {
    const run = (env: Record<string, string>) =>
      spawnSync(
        process.execPath,
        ["dist/charging-cli.js", "search", "--limit", "2", "--json", "--url", server.url],
        {
          encoding: "utf8",
          env: { ...process.env, ...env },
        },
      );
    const ok = run({ CHARGING_API_KEY: key });
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal((JSON.parse(ok.stdout) as { data: unknown[] }).data.length, 2);
    const denied = run({ CHARGING_API_KEY: "" });
    assert.equal(denied.status, 1);
    assert.match(denied.stderr, /UNAUTHORIZED/);
  } finally {
    await stop(server.child);
  }
  const down = cli("search", "--url", "http://127.0.0.1:1");
  assert.equal(down.code, 1);
  assert.match(down.stderr, /cannot reach http:\/\/127\.0\.0\.1:1/);
});

test("charging serve runs the same server as dist/charging.js", async () => {
  const served = await startBuilt({ PORT: "8787" }, "dist/charging-cli.js", ["serve", "--port", "0"]);
  try {
    assert.match(served.stderr(), /charging: listening on http:\/\/127\.0\.0\.1:\d+ \(\d+ sites\)/);
    const health = (await (await fetch(`${served.url}/healthz`)).json()) as { ok: boolean };
    assert.equal(health.ok, true);
  } finally {
    await stop(served.child);
  }
});

test("charging import dispatches to the importer", () => {
  const dir = mkdtempSync(join(tmpdir(), "charging-import-"));
  try {
    const out = join(dir, "sites.json");
    const run = cli("import", join(DATA_DIR, "ocm-poi-evmap-de-verbose.json"), "--out", out);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(existsSync(out));
    const written = JSON.parse(readFileSync(out, "utf8")) as { sites: unknown[] };
    assert.ok(written.sites.length > 0);
    assert.match(run.stdout, /^\{"out":.*\}\n$/);
    assert.match(run.stderr, /^import: .*ocm-poi-evmap-de-verbose\.json: ocm-json, 0\.0 MB$/m);
    const snapshot = join(dir, "sites.snapshot");
    assert.equal(cli("import", out, "--out", snapshot).code, 0, "a JSON data set converts to a snapshot");
    const served = spawnSync(process.execPath, ["dist/charging-cli.js", "search", "--json", "--limit", "10"], {
      encoding: "utf8",
      timeout: 30_000,
      env: { ...process.env, CHARGING_DATA: snapshot },
    });
    assert.equal(served.status, 0, served.stderr);
    assert.equal((JSON.parse(served.stdout) as { page: { total: number } }).page.total, written.sites.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an unreadable CHARGING_DATA file is named and exits 2 in-process", () => {
  const run = spawnSync(process.execPath, ["dist/charging-cli.js", "search", "--limit", "1"], {
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, CHARGING_DATA: "/nonexistent/sites.json" },
  });
  assert.equal(run.status, 2);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /^INVALID_CONFIG: CHARGING_DATA: cannot read \/nonexistent\/sites\.json \(ENOENT\); fix the variable, flag or file the message names and start again\n$/);
});
