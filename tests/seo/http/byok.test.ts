import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { KEYS } from "../fakes/providers.ts";
import { serviceAccount } from "../fakes/setup.ts";
import { gatewayHandler, inProcess, mcpClient, startWorld, type World } from "./harness.ts";

const account = serviceAccount();
let world: World;

before(async () => {
  world = await startWorld({ gscPublicKey: account.publicKey, gscSites: ["sc-domain:example.com"] });
});
after(() => world.close());

const OWN_KEY = { psi: KEYS.psi, crux: KEYS.crux, opr: KEYS.opr, bing: KEYS.bing } as Record<string, string>;
const PEM_LINE = account.privateKey.split("\n")[1] ?? "unreachable";
const SECRETS = [...Object.values(KEYS), PEM_LINE, "byok-opr-FFFF6666", "byok-bing-GGGG7777"];

function byokHeaders(gsc: "raw" | "base64"): Record<string, string> {
  return {
    "x-seo-psi-key": KEYS.psi,
    "x-seo-crux-key": KEYS.crux,
    "x-seo-opr-key": KEYS.opr,
    "x-seo-bing-key": KEYS.bing,
    "x-seo-gsc-credentials": gsc === "raw" ? account.json : Buffer.from(account.json).toString("base64"),
  };
}

test("BYOK headers: each key reaches only its own provider, and no log line or answer carries one", async () => {
  const logs: string[] = [];
  const handler = gatewayHandler(world, {}, logs);
  const from = world.fakes.log.length;
  const texts: string[] = [];
  for (const gsc of ["raw", "base64"] as const) {
    const session = await mcpClient("http://gw.test", byokHeaders(gsc), inProcess(handler));
    const calls: [string, Record<string, unknown>][] = [
      ["seo_keyword_ideas", { query: "ev charging", expand: false, site: "example.com", response_format: "detailed" }],
      ["seo_rank_check", { keyword: "ev charging", domain: "example.com", response_format: "detailed" }],
      ["seo_authority", { domains: ["example.com"], response_format: "detailed" }],
      ["seo_page_report", { url: "https://shop.example/page", response_format: "detailed" }],
    ];
    for (const [name, args] of calls) {
      const result = await session.call(name, args);
      assert.equal(result.isError, undefined, `${name}: ${result.text}`);
      texts.push(result.text);
    }
    assert.match(texts.at(-4) ?? "", /"source":"search-console"/, "the GSC credentials from the header were used");
    assert.match(texts.at(-1) ?? "", /"kind":"provider","source":"pagespeed-insights"/);
    await session.close();
  }
  const rest = await handler(
    new Request("http://gw.test/api/v1/keyword-ideas?q=heat%20pump&expand=false&site=example.com", {
      headers: byokHeaders("raw"),
    }),
  );
  assert.equal(rest.status, 200);
  texts.push(await rest.text());

  const seen = new Set<string>();
  for (const entry of world.fakes.log.slice(from)) {
    const wire = `${entry.url} ${JSON.stringify(entry.headers)} ${entry.body}`;
    for (const secret of SECRETS) {
      if (secret === OWN_KEY[entry.provider]) {
        if (wire.includes(secret)) seen.add(entry.provider);
        continue;
      }
      assert.ok(!wire.includes(secret), `${entry.provider} received a foreign secret`);
    }
  }
  assert.deepEqual([...seen].sort(), ["bing", "crux", "opr", "psi"], "every keyed provider got its own key");
  const out = `${logs.join("\n")}\n${texts.join("\n")}`;
  for (const secret of SECRETS) assert.ok(!out.includes(secret), "a key leaked into a log line or an answer");
});

test("BYOK: a rejected or throttled key is never echoed; concurrent requests keep their own keys", async () => {
  const logs: string[] = [];
  const handler = gatewayHandler(world, {}, logs);
  const from = world.fakes.log.length;
  const [a, b] = await Promise.all([
    mcpClient("http://gw.test", { "x-seo-opr-key": "byok-opr-FFFF6666" }, inProcess(handler)),
    mcpClient("http://gw.test", { "x-seo-opr-key": KEYS.opr, "x-seo-bing-key": "byok-bing-GGGG7777" }, inProcess(handler)),
  ]);
  const texts: string[] = [];
  try {
    const [rejected, accepted, bing] = await Promise.all([
      a.call("seo_authority", { domains: ["alpha.example"] }),
      b.call("seo_authority", { domains: ["beta.example"] }),
      b.call("seo_rank_check", { keyword: "ev", domain: "example.com" }),
    ]);
    texts.push(rejected.text, accepted.text, bing.text);
    assert.match(rejected.text, /key-rejected/);
    assert.match(accepted.text, /"value":5\.27/);
    world.fakes.mode.opr = "429";
    texts.push((await a.call("seo_authority", { domains: ["gamma.example"] })).text);
  } finally {
    world.fakes.mode.opr = "ok";
    await Promise.all([a.close(), b.close()]);
  }
  const opr = world.fakes.log.slice(from).filter((e) => e.provider === "opr");
  const keyFor = (domain: string) => opr.find((e) => e.url.includes(domain))?.headers["api-opr"];
  assert.equal(keyFor("alpha.example"), "byok-opr-FFFF6666");
  assert.equal(keyFor("beta.example"), KEYS.opr);
  const out = `${logs.join("\n")}\n${texts.join("\n")}`;
  for (const secret of SECRETS) assert.ok(!out.includes(secret), "a key leaked");
});

test("BYOK: unusable credentials in x-seo-gsc-credentials are reported by header name, never echoed", async () => {
  const handler = gatewayHandler(world);
  const session = await mcpClient("http://gw.test", { "x-seo-gsc-credentials": "c2VjcmV0LW5vdC1qc29u" }, inProcess(handler));
  const result = await session.call("seo_rank_check", { keyword: "ev", domain: "example.com" });
  await session.close();
  assert.match(result.text, /x-seo-gsc-credentials header is not valid JSON/);
  assert.doesNotMatch(result.text, /c2VjcmV0LW5vdC1qc29u|secret-not-json/);
});
