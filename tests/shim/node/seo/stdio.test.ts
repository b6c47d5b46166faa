import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type Fakes, KEYS, startFakes } from "../../../seo/fakes/providers.ts";
import { envFor, serviceAccount } from "../../../seo/fakes/setup.ts";
import { type Site, startSite } from "../../../seo/fakes/site.ts";
import { BUNDLE, ensureBundle, spawnServer } from "../../../seo/fakes/stdio.ts";

const TOOLS = ["seo_audit_site", "seo_page_report", "seo_keyword_ideas", "seo_rank_check", "seo_authority"];
const account = serviceAccount();
let fakes: Fakes;
let site: Site;
let cache: string;

before(async () => {
  ensureBundle();
  cache = mkdtempSync(join(tmpdir(), "seo-stdio-"));
  [fakes, site] = await Promise.all([
    startFakes({ gscPublicKey: account.publicKey, gscSites: ["sc-domain:example.com"] }),
    startSite(),
  ]);
});
after(async () => {
  await Promise.all([fakes.close(), site.close()]);
  rmSync(cache, { recursive: true, force: true });
});

const env = (withKeys: boolean, gsc = false) => ({
  ...envFor(fakes, withKeys, gsc ? account.json : undefined),
  SEO_CACHE_DIR: cache,
});

test("stdio: the five tools are listed with schemas, annotations and response_format", async () => {
  const server = await spawnServer(env(false));
  try {
    const { tools } = await server.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      TOOLS,
    );
    for (const tool of tools) {
      assert.ok((tool.description ?? "").length > 100, tool.name);
      assert.equal(tool.inputSchema.type, "object");
      const format = (tool.inputSchema.properties as Record<string, { enum?: string[]; default?: string }>)
        .response_format;
      assert.deepEqual(format?.enum, ["concise", "detailed"], tool.name);
      assert.equal(tool.outputSchema?.type, "object", tool.name);
      assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
      assert.equal(tool.annotations?.openWorldHint, true, tool.name);
      assert.equal(tool.annotations?.destructiveHint, false, tool.name);
    }
    assert.deepEqual(
      TOOLS.slice(1).map((name) => tools.find((t) => t.name === name)?.inputSchema.required),
      [["url"], ["query"], ["keyword", "domain"], ["domains"]],
    );
    assert.match(server.client.getInstructions() ?? "", /provenance/);
    assert.equal(server.client.getServerVersion()?.name, "seo-audit-mcp");
  } finally {
    await server.close();
  }
  assert.match(server.stderr(), /serving 5 tools over stdio/);
  assert.deepEqual(server.errors, []);
});

test("stdio without keys: every tool answers, keyed values say which key would help", async () => {
  const server = await spawnServer(env(false));
  try {
    const ideas = await server.call("seo_keyword_ideas", { query: "ev charging", expand: false });
    assert.equal(ideas.isError, undefined, ideas.text);
    assert.ok((ideas.structured.totalIdeas as { value: number }).value >= 4);
    const detailedIdeas = await server.call("seo_keyword_ideas", {
      query: "ev charging",
      response_format: "detailed",
    });
    assert.equal(detailedIdeas.structured.expansionQueries, 37);

    const authority = await server.call("seo_authority", { domains: ["example.com"] });
    assert.match(
      JSON.stringify(authority.structured),
      /"code":"no-key","reason":"Open PageRank needs SEO_OPR_KEY/,
    );
    assert.match(
      JSON.stringify(authority.structured),
      /"value":498,"provenance":\{"kind":"provider","source":"tranco"/,
    );

    const rank = await server.call("seo_rank_check", { keyword: "ev charging", domain: "example.com" });
    assert.match(JSON.stringify(rank.structured.position), /SEO_GSC_CREDENTIALS.*SEO_BING_KEY/);

    for (const response_format of ["concise", "detailed"]) {
      const page = await server.call("seo_page_report", { url: `${site.url}/page`, response_format });
      assert.equal(page.isError, undefined, page.text);
      assert.match(page.text, /HTTP 200 in \d+ ms \[measured\]/);
    }
    const audit = await server.call("seo_audit_site", { url: `${site.url}/page`, max_pages: 3 });
    assert.equal(audit.isError, undefined, audit.text);
  } finally {
    await server.close();
  }
  assert.deepEqual(server.errors, []);
});

test("stdio: stored reports are resources; each audit answer links its report, and a check's URLs are read page by page", async () => {
  const server = await spawnServer(env(false));
  try {
    const { resourceTemplates } = await server.client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ["seo-report://{report_id}", "seo-report://{report_id}/checks/{check}{?cursor}"]);
    const audit = await server.client.callTool({ name: "seo_audit_site", arguments: { url: `${site.url}/page`, max_pages: 3 } });
    const id = (audit.structuredContent as { report_id: string }).report_id;
    const link = (audit.content as { type: string; uri?: string }[]).find((c) => c.type === "resource_link");
    assert.equal(link?.uri, `seo-report://${id}`);

    const [whole] = (await server.client.readResource({ uri: link.uri })).contents as { text: string; mimeType: string }[];
    assert.equal(whole?.mimeType, "application/json");
    const report = JSON.parse(whole.text) as { report_id: string; findings: { value: Record<string, Record<string, number>> } };
    assert.equal(report.report_id, id);
    const [check, count] = Object.entries(Object.values(report.findings.value)[0] ?? {})[0] ?? [];
    assert.ok(check && count, "the fixture site has findings");
    const [urls] = (await server.client.readResource({ uri: `${link.uri}/checks/${check}` })).contents as { text: string }[];
    const page = JSON.parse(urls?.text ?? "{}") as { report_id: string; check: { value: { id: string } } };
    assert.equal(page.report_id, id);
    assert.match(JSON.stringify(page), new RegExp(`"${check}"`));

    const stored = await server.client.callTool({ name: "seo_audit_site", arguments: { report_id: id, check } });
    assert.ok((stored.content as { type: string }[]).some((c) => c.type === "resource_link"), "a stored answer links too");
    await assert.rejects(server.client.readResource({ uri: "seo-report://audit-20990101T000000-none" }), /-32002|No resource at/);
    await assert.rejects(server.client.readResource({ uri: `${link.uri}/checks/${check}?cursor=x` }), /INVALID_ARGUMENTS: cursor/);
  } finally {
    await server.close();
  }
  assert.deepEqual(server.errors, []);
});

test("stdio with keys: keys reach only their own provider and never a log line or a result", async () => {
  const before = fakes.log.length;
  const server = await spawnServer(env(true, true));
  const texts: string[] = [];
  try {
    const calls: [string, Record<string, unknown>][] = [
      [
        "seo_keyword_ideas",
        { query: "ev charging", expand: false, site: "example.com", response_format: "detailed" },
      ],
      ["seo_rank_check", { keyword: "ev charging", domain: "example.com", response_format: "detailed" }],
      ["seo_authority", { domains: ["example.com", "unknown-x.org"], response_format: "detailed" }],
      ["seo_page_report", { url: `${site.url}/page`, response_format: "detailed" }],
    ];
    for (const [name, args] of calls) {
      const r = await server.call(name, args);
      assert.equal(r.isError, undefined, `${name}: ${r.text}`);
      texts.push(r.text);
    }
    assert.match(texts[0] ?? "", /"source":"search-console"/);
    assert.match(texts[1] ?? "", /"engine":"google"/);
    assert.match(texts[2] ?? "", /"value":5.27/);
    // Failures (rejected key, quota) must not echo keys either.
    fakes.mode.opr = "4xx";
    fakes.mode.bing = "429";
    texts.push((await server.call("seo_authority", { domains: ["fresh-domain.org"] })).text);
    texts.push((await server.call("seo_keyword_ideas", { query: "heat pump", expand: false })).text);
  } finally {
    fakes.mode.opr = fakes.mode.bing = "ok";
    await server.close();
  }
  const own: Record<string, string | undefined> = {
    psi: KEYS.psi,
    crux: KEYS.crux,
    opr: KEYS.opr,
    bing: KEYS.bing,
  };
  const secrets = [...Object.values(KEYS), "PRIVATE KEY", account.privateKey.split("\n")[1] ?? "x"];
  const seen = new Set<string>();
  for (const entry of fakes.log.slice(before)) {
    const wire = `${entry.url} ${JSON.stringify(entry.headers)} ${entry.body}`;
    for (const secret of secrets) {
      if (secret === own[entry.provider]) {
        if (wire.includes(secret)) seen.add(entry.provider);
        continue;
      }
      assert.ok(!wire.includes(secret), `${entry.provider} received a foreign secret`);
    }
  }
  assert.deepEqual([...seen].sort(), ["bing", "opr"], "the keyed providers used here got their own key");
  const out = `${server.stderr()}\n${texts.join("\n")}`;
  for (const secret of secrets) assert.ok(!out.includes(secret), "a secret leaked into stderr or a result");
  assert.deepEqual(server.errors, []);
});

test("stdio: bad inputs are isError results, unknown tools protocol errors, the server stays up", async () => {
  const server = await spawnServer(env(false));
  try {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["seo_page_report", { url: 42 }, /INVALID_ARGUMENTS: url/],
      ["seo_keyword_ideas", { query: "x".repeat(101) }, /INVALID_ARGUMENTS: query/],
      ["seo_rank_check", { keyword: "ev", domain: "nope" }, /not a domain/],
      ["seo_authority", { domains: "example.com" }, /INVALID_ARGUMENTS: domains/],
      ["seo_audit_site", { url: "mailto:me@example.com" }, /not an absolute http\(s\) URL/],
      ["seo_page_report", { url: "https://example.com/", response_format: "verbose" }, /response_format/],
    ];
    for (const [name, args, expected] of cases) {
      const r = await server.call(name, args);
      assert.equal(r.isError, true, name);
      assert.match(r.text, expected);
    }
    await assert.rejects(
      server.client.callTool({ name: "seo_nope", arguments: {} }),
      /Unknown tool "seo_nope"/,
    );
    const { tools } = await server.client.listTools();
    assert.equal(tools.length, 5);
  } finally {
    await server.close();
  }
});

test("CLI: --version, --help, unknown commands and a bad endpoint exit cleanly with the right codes", () => {
  const run = (args: string[], extraEnv: Record<string, string> = {}) =>
    spawnSync(process.execPath, [BUNDLE, ...args], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, ...extraEnv },
    });
  const version = run(["--version"]);
  assert.equal(version.status, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  const help = run(["--help"]);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /seo-audit-mcp mcp .*stdio/);
  const unknown = run(["serve"]);
  assert.equal(unknown.status, 2);
  assert.equal(unknown.stdout, "");
  assert.match(unknown.stderr, /unknown command "serve"/);
  assert.equal(run([]).status, 2);
  assert.equal(run(["mcp", "extra"]).status, 2);
  const badEnv = run(["mcp"], { SEO_PSI_ENDPOINT: "nonsense" });
  assert.equal(badEnv.status, 2);
  assert.equal(badEnv.stdout, "");
  assert.match(badEnv.stderr, /SEO_PSI_ENDPOINT must be an absolute http\(s\) URL/);
  const auditHelp = run(["audit", "--help"]);
  assert.equal(auditHelp.status, 0);
  assert.match(auditHelp.stdout, /Usage: seo-audit-mcp audit <url>/);
  assert.equal(execFileSync(process.execPath, [BUNDLE, "-v"], { encoding: "utf8" }), version.stdout);
});

test("CLI: audit <url> --json crawls with the node:http client, prints JSON on stdout and exits", async () => {
  const { execFile } = await import("node:child_process");
  const { promisify } = await import("node:util");
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [BUNDLE, "audit", `${site.url}/page`, "--max-pages", "2", "--min-interval-ms", "0", "--json"],
    { env: { PATH: process.env.PATH ?? "", SEO_CACHE_DIR: cache }, timeout: 30_000 },
  );
  const report = JSON.parse(stdout) as { report_id: string; target: string };
  assert.match(report.report_id, /^audit-/);
  assert.match(stderr, /auditing http:\/\/127\.0\.0\.1:\d+\/page/);
});
