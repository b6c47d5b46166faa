import assert from "node:assert/strict";
import { test } from "node:test";
import { type CliDeps, runCli, USAGE } from "../../../../src/charging/transports/cli/run.ts";
import { COMMAND_USAGE } from "../../../../src/charging/transports/cli/usage.ts";
import { renderSites, renderTable } from "../../../../src/charging/transports/cli/table.ts";
import { createChargingHandler } from "../../../../src/charging/handler.ts";
import { createStatusService } from "../../../../src/charging/status/service.ts";
import { storeOfSites } from "../../../../src/charging/search/store.ts";
import { ApiError, ERRORS } from "../../../../src/shared/errors.ts";
import { SITES } from "../http/sites.ts";

const store = storeOfSites(SITES);
const handler = createChargingHandler({
  store,
  status: createStatusService(store, { now: () => new Date("2026-01-01T00:00:00Z") }),
});

function harness(extra: Partial<CliDeps> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const calls: string[] = [];
  const deps: CliDeps = {
    env: {},
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    local: async () => handler,
    fetch: async (input, init) => {
      calls.push(String(input));
      return handler(new Request(input as URL, init));
    },
    serve: async (overrides) => {
      calls.push(`serve ${JSON.stringify(overrides)}`);
      return 0;
    },
    runImport: async (args) => {
      calls.push(`import ${args.join(" ")}`);
      return 0;
    },
    runRefresh: async (args) => {
      calls.push(`refresh ${args.join(" ")}`);
      return 0;
    },
    ...extra,
  };
  const run = (...argv: string[]) => runCli(argv, deps);
  return { run, out, err, calls, text: () => out.join(""), errors: () => err.join("") };
}

test("runCli() prints help on --help (each command its own), the version on --version, one line with exit 2 without a command", async () => {
  const h = harness();
  assert.equal(await h.run("--help"), 0);
  assert.equal(h.text(), USAGE);
  assert.equal(await h.run(), 2);
  assert.equal(h.errors(), "INVALID_USAGE: a command is required: search, route, site, status, serve, import or refresh; see charging --help\n");
  for (const [command, usage] of Object.entries(COMMAND_USAGE)) {
    const each = harness();
    assert.equal(await each.run(command, "--bogus", "--help"), 0, "--help wins over a bad flag");
    assert.equal(each.text(), usage);
    assert.ok(usage.startsWith(`Usage: charging ${command} `), command);
  }
  const help = harness();
  assert.equal(await help.run("help", "serve"), 0);
  assert.equal(help.text(), COMMAND_USAGE.serve);
  for (const argv of [["--version"], ["-v"], ["search", "--version"], ["import", "--version"]]) {
    const version = harness();
    assert.equal(await version.run(...argv), 0, argv.join(" "));
    assert.match(version.text(), /^\d+\.\d+\.\d+\n$/, argv.join(" "));
  }
  const importHelp = harness();
  assert.equal(await importHelp.run("import", "--help"), 0);
  assert.deepEqual(importHelp.calls, ["import --help"], "import answers its own --help");
  const refreshHelp = harness();
  assert.equal(await refreshHelp.run("refresh", "--help"), 0);
  assert.deepEqual(refreshHelp.calls, ["refresh --help"], "refresh answers its own --help");
});

test("runCli() search renders a table with the page line and attribution", async () => {
  const h = harness();
  assert.equal(await h.run("search", "--connector", "ccs", "--limit=5"), 0);
  const text = h.text();
  assert.match(text, /^ID\s+NAME\s+KW\s+CONNECTORS\s+STATUS\s+PLACE$/m);
  assert.match(text, /^ocm:2\s+Site ocm:2\s+150\s+ccs2\s+OUTOFORDER\s+-$/m);
  assert.match(text, /^sites 1-1 of 1$/m);
  assert.match(text, /^STATUS is the open data's registry status .*, not live occupancy; see charging status <id>$/m);
  assert.match(text, /^data: /m);
});

test("runCli() search --json prints the API answer; --near adds distances", async () => {
  const h = harness();
  assert.equal(
    await h.run("search", "--bbox", "13,52,14,53", "--open-only", "--min-power", "10", "--json"),
    0,
  );
  const body = JSON.parse(h.text()) as { data: { id: string }[]; page: unknown };
  assert.deepEqual(
    body.data.map((s) => s.id),
    ["ocm:1"],
  );
  assert.deepEqual(body.page, { limit: 20, offset: 0, total: 1 });
  const near = harness();
  assert.equal(await near.run("search", "--near", "48.85,2.35", "--radius", "5", "--offset", "1"), 0);
  assert.match(near.text(), /KM/);
  assert.match(near.text(), /^osm:way\/20 .* 1\.\d\d\s+-$/m);
  const none = harness();
  assert.equal(await none.run("search", "--connector", "zzz"), 0);
  assert.match(none.text(), /^no sites \(total 0, offset 0\)$/m);
});

test("runCli() site and status print fields; unknown ids exit 1 with the error on stderr", async () => {
  const site = harness();
  assert.equal(await site.run("site", "ocm:2"), 0);
  assert.match(site.text(), /^id\s+ocm:2$/m);
  assert.match(site.text(), /^status\s+OUTOFORDER \(registry data, not live occupancy\)$/m);
  assert.match(site.text(), /^ccs2\s+CCS \(Type 2\)\s+150\s+4\s+DC$/m);
  assert.match(site.text(), /^attribution\s+\S.* \(https?:\/\/\S+\)$/m, "the row's credit line is shown");
  const status = harness();
  assert.equal(await status.run("status", "osm:node/10"), 0);
  assert.match(status.text(), /^stale\s+true$/m);
  const json = harness();
  assert.equal(await json.run("status", "osm:way/20", "--json"), 0);
  assert.equal((JSON.parse(json.text()) as { data: { id: string } }).data.id, "osm:way/20");
  const missing = harness();
  assert.equal(await missing.run("site", "ocm:999"), 1);
  assert.equal(
    missing.errors(),
    'NOT_FOUND: no open site has id "ocm:999" (unknown, closed, or not an id like ocm:123 or osm:node/123); find one with charging search (e.g. charging search --near 52.52,13.40 --limit 5)\n',
  );
  assert.doesNotMatch(missing.errors(), /\/api\/v1|GET |%3A/, "a terminal user is never sent to an HTTP route");
  assert.equal(missing.text(), "");
  const malformed = harness();
  assert.equal(await malformed.run("status", "foo"), 1);
  assert.match(malformed.errors(), /^NOT_FOUND: no open site has id "foo" .*; find one with charging search/);
});

test("runCli() bad flags and values exit 2 with the flag named", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["search", "--limit", "0"], /^INVALID_ARGUMENTS: --limit must be an integer from 1 to 100; see charging search --help$/],
    [["search", "--min-power", "x"], /--min-power must be a plain decimal number/],
    [["search", "--bogus"], /^INVALID_USAGE: unknown option --bogus; see charging search --help$/],
    [["search", "--limit"], /--limit needs a value/],
    [["search", "--json=yes"], /--json takes no value/],
    [["search", "--limit", "1", "--limit", "2"], /--limit given more than once/],
    [["search", "extra"], /search takes no arguments/],
    [["site"], /site takes exactly one site id/],
    [["site", "--connector", "x", "ocm:1"], /unknown option --connector/],
    [["frobnicate"], /unknown command "frobnicate"/],
    [["--limit", "3"], /put the command first: charging search --limit 3$/],
    [["--colour"], /^INVALID_USAGE: unknown option --colour; the command comes first \(see charging --help\)$/],
    [["search", "--url", "ftp://x"], /--url must be an http\(s\) URL/],
    [["search", "--url", "not a url"], /--url must be an http\(s\) URL, e.g\. http:\/\/127\.0\.0\.1:8787; see charging search --help$/],
    [["serve", "now"], /serve takes no arguments/],
    [["search", "-l", "5"], /unknown option -l; see charging search --help/],
    [["site", "-j", "ocm:1"], /unknown option -j/],
  ];
  for (const [argv, message] of cases) {
    const h = harness();
    assert.equal(await h.run(...argv), 2, argv.join(" "));
    const line = h.errors();
    assert.match(line, /^[A-Z_]+: [^\n]+; [^\n]+\n$/, `one line, CODE: what happened; what to do (${argv.join(" ")})`);
    assert.match(line.trimEnd(), message, argv.join(" "));
  }
});

test("runCli() --url asks that server, sending CHARGING_API_KEY as x-api-key", async () => {
  let seen: Headers | undefined;
  const h = harness({
    env: { CHARGING_API_KEY: "secret-key" },
    fetch: async (input, init) => {
      seen = new Headers(init?.headers);
      assert.equal(String(input), "http://127.0.0.1:9/api/v1/sites/osm%3Anode%2F10");
      return handler(new Request(input as URL, init));
    },
  });
  assert.equal(await h.run("site", "osm:node/10", "--url", "http://127.0.0.1:9"), 0);
  assert.equal(seen?.get("x-api-key"), "secret-key");
  const down = harness({ fetch: async () => Promise.reject(new Error("ECONNREFUSED")) });
  assert.equal(await down.run("search", "--url", "http://127.0.0.1:9"), 1);
  assert.equal(down.errors(), "UNREACHABLE: cannot reach http://127.0.0.1:9: ECONNREFUSED; check --url and that the server is running (charging serve)\n");
  const html = harness({ fetch: async () => new Response("<html>", { status: 502 }) });
  assert.equal(await html.run("search", "--url", "http://127.0.0.1:9"), 1);
  assert.match(html.errors(), /^UPSTREAM_UNAVAILABLE: http:\/\/127\.0\.0\.1:9 answered HTTP 502 without JSON; check that --url names a charging server/);
});

test("runCli() hands serve, import and refresh to the runtime", async () => {
  const h = harness();
  assert.equal(await h.run("serve", "--port", "0", "--host", "::1", "--data", "x.json"), 0);
  assert.equal(await h.run("import", "--ocm", "a.json"), 0);
  assert.equal(await h.run("refresh", "--out", "x.snapshot"), 0);
  assert.deepEqual(h.calls, [
    'serve {"PORT":"0","HOST":"::1","CHARGING_DATA":"x.json"}',
    "import --ocm a.json",
    "refresh --out x.snapshot",
  ]);
});

test("renderTable() aligns columns and does not pad the last one", () => {
  assert.equal(
    renderTable(
      ["A", "BB"],
      [
        ["xyz", "1"],
        ["q", "22"],
      ],
    ),
    "A    BB\nxyz  1\nq    22",
  );
});

test("runCli() lets a local data failure through to the entry point instead of 'cannot reach undefined'", async () => {
  const broken = new Error("CHARGING_DATA: /x.json: charging dataset is malformed");
  const h = harness({ local: () => Promise.reject(broken) });
  await assert.rejects(h.run("search", "--limit", "1"), (err) => err === broken);
  assert.doesNotMatch(h.errors(), /cannot reach/);
});

test("renderSites() places a site without a town by its region", () => {
  const site = SITES[0] as (typeof SITES)[number];
  const address = { line1: null, line2: null, town: null, region: "London", postcode: null, countryCode: "GB" };
  const text = renderSites([{ ...site, address }], { limit: 1, offset: 0, total: 1 }, []);
  assert.match(text, /\sLondon, GB$/m);
});

test("runCli() serve names the flag, not the variable, in a configuration error", async () => {
  const h = harness({
    serve: (overrides) =>
      Promise.reject(new ApiError("INVALID_CONFIG", `PORT must be an integer from 0 to 65535 (got ${overrides.PORT})`)),
  });
  assert.equal(await h.run("serve", "--port", "abc"), 2, "a configuration error exits 2");
  assert.equal(h.errors(), `INVALID_CONFIG: --port must be an integer from 0 to 65535 (got abc); ${ERRORS.INVALID_CONFIG.hint}\n`);
  const env = harness({ serve: () => Promise.reject(new ApiError("INVALID_CONFIG", "PORT must be an integer")) });
  assert.equal(await env.run("serve"), 2);
  assert.match(env.errors(), /^INVALID_CONFIG: PORT must be an integer; /, "from the environment");
});

test("runCli() says what a server named by --url refused in the CLI's words", async () => {
  const answer = (code: string, message: string, status: number) => async () =>
    Response.json({ error: { code, message } }, { status });
  const cases: [ReturnType<typeof answer>, RegExp][] = [
    [answer("UNAUTHORIZED", "An API key is required: send it in the x-api-key header", 401), /^UNAUTHORIZED: the server needs an API key; set CHARGING_API_KEY/],
    [answer("UNAUTHORIZED", "The API key is not valid: check the x-api-key header", 401), /^UNAUTHORIZED: the server refused the key in CHARGING_API_KEY; set it/],
    [answer("NOT_FOUND", "No such route; the API has GET /healthz", 404), /^NOT_FOUND: http:\/\/127\.0\.0\.1:9 has no charging-site search; check that --url names a charging server/],
    [answer("RATE_LIMITED", "Over 60 requests per minute from your address; retry in 7 s", 429), /^RATE_LIMITED: Over 60 requests per minute from your address; retry in 7 s$/],
    [answer("SOMETHING_NEW", "an answer from a newer server", 500), /^UPSTREAM_UNAVAILABLE: an answer from a newer server; /],
  ];
  for (const [fetch, line] of cases) {
    const h = harness({ fetch });
    assert.equal(await h.run("search", "--url", "http://127.0.0.1:9"), 1);
    assert.match(h.errors().trimEnd(), line);
    assert.doesNotMatch(h.errors(), /x-api-key|\/api\/v1|\n./);
  }
});
