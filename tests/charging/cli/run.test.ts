import assert from "node:assert/strict";
import { test } from "node:test";
import { type CliDeps, runCli, USAGE } from "../../../src/charging/cli/run.ts";
import { renderSites, renderTable } from "../../../src/charging/cli/table.ts";
import { createChargingHandler } from "../../../src/charging/handler.ts";
import { createStatusService } from "../../../src/charging/status/service.ts";
import { storeOfSites } from "../../../src/charging/store.ts";
import { ApiError, isApiError } from "../../../src/shared/errors.ts";
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
    ...extra,
  };
  const run = (...argv: string[]) => runCli(argv, deps);
  return { run, out, err, calls, text: () => out.join(""), errors: () => err.join("") };
}

test("runCli() prints help on --help, and usage with exit 2 without a command", async () => {
  const h = harness();
  assert.equal(await h.run("--help"), 0);
  assert.equal(h.text(), USAGE);
  assert.equal(await h.run(), 2);
  assert.match(h.errors(), /Usage:/);
  assert.equal(await harness().run("search", "--help"), 0);
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
  assert.match(missing.errors(), /^charging: NOT_FOUND: /);
  assert.equal(missing.text(), "");
});

test("runCli() bad flags and values exit 2 with the flag named", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["search", "--limit", "0"], /INVALID_ARGUMENTS: --limit must be an integer from 1 to 100/],
    [["search", "--min-power", "x"], /--min-power must be a plain decimal number/],
    [["search", "--bogus"], /unknown option --bogus; see charging --help/],
    [["search", "--limit"], /--limit needs a value/],
    [["search", "--json=yes"], /--json takes no value/],
    [["search", "--limit", "1", "--limit", "2"], /--limit given more than once/],
    [["search", "extra"], /search takes no arguments/],
    [["site"], /site takes exactly one site id/],
    [["site", "--connector", "x", "ocm:1"], /unknown option --connector/],
    [["frobnicate"], /unknown command "frobnicate"/],
    [["--limit", "3"], /put the command first/],
    [["search", "--url", "ftp://x"], /--url must be an http\(s\) URL/],
    [["serve", "now"], /serve takes no arguments/],
    [["search", "-l", "5"], /unknown option -l; see charging --help/],
    [["site", "-j", "ocm:1"], /unknown option -j/],
  ];
  for (const [argv, message] of cases) {
    const h = harness();
    assert.equal(await h.run(...argv), 2, argv.join(" "));
    assert.match(h.errors(), message, argv.join(" "));
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
  assert.match(down.errors(), /cannot reach http:\/\/127\.0\.0\.1:9: ECONNREFUSED/);
  const html = harness({ fetch: async () => new Response("<html>", { status: 502 }) });
  assert.equal(await html.run("search", "--url", "http://127.0.0.1:9"), 1);
  assert.match(html.errors(), /HTTP 502 without JSON/);
});

test("runCli() hands serve and import to the runtime", async () => {
  const h = harness();
  assert.equal(await h.run("serve", "--port", "0", "--host", "::1", "--data", "x.json"), 0);
  assert.equal(await h.run("import", "--ocm", "a.json"), 0);
  assert.deepEqual(h.calls, [
    'serve {"PORT":"0","HOST":"::1","CHARGING_DATA":"x.json"}',
    "import --ocm a.json",
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
  await assert.rejects(h.run("serve", "--port", "abc"), (err) => {
    assert.ok(isApiError(err, "INVALID_CONFIG"), "still a configuration error: the entry point exits 2");
    assert.equal(err.message, "--port must be an integer from 0 to 65535 (got abc)");
    return true;
  });
  const env = harness({ serve: () => Promise.reject(new ApiError("INVALID_CONFIG", "PORT must be an integer")) });
  await assert.rejects(
    env.run("serve"),
    (err) => isApiError(err, "INVALID_CONFIG") && err.message === "PORT must be an integer",
    "from the environment",
  );
});
