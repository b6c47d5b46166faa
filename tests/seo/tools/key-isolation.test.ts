import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { connect } from "../fakes/client.ts";
import { type Fakes, KEYS, startFakes } from "../fakes/providers.ts";
import { configFor, recordingDeps, serviceAccount } from "../fakes/setup.ts";
import { type Site, startSite } from "../fakes/site.ts";

const account = serviceAccount();
let fakes: Fakes;
let site: Site;
before(async () => {
  [fakes, site] = await Promise.all([
    startFakes({ gscPublicKey: account.publicKey, gscSites: ["sc-domain:example.com"] }),
    startSite(),
  ]);
});
after(async () => {
  await Promise.all([fakes.close(), site.close()]);
});

test("every provider receives its own key and no other secret, whatever the tool", async () => {
  const logs: string[] = [];
  const mcp = await connect(configFor(fakes, true, account.json), {
    provider: { ...recordingDeps(), fetch: site.fetch },
    log: (l) => logs.push(l),
  });
  const texts: string[] = [];
  try {
    for (const [name, args] of [
      ["seo_page_report", { url: "https://shop.example/page?iso", response_format: "detailed" }],
      ["seo_keyword_ideas", { query: "isolation test", expand: false, site: "example.com" }],
      ["seo_rank_check", { keyword: "isolation", domain: "example.com" }],
      ["seo_authority", { domains: ["isolation.example"] }],
    ] as const) {
      texts.push((await mcp.call(name, args)).text);
    }
  } finally {
    await mcp.close();
  }
  const own: Record<string, string> = { psi: KEYS.psi, crux: KEYS.crux, opr: KEYS.opr, bing: KEYS.bing };
  const secrets = [...Object.values(KEYS), account.privateKey.split("\n")[1] ?? "missing"];
  const keyed = new Set<string>();
  for (const entry of fakes.log) {
    const wire = `${entry.url} ${JSON.stringify(entry.headers)} ${entry.body}`;
    for (const secret of secrets) {
      if (secret === own[entry.provider]) {
        assert.ok(wire.includes(secret), `${entry.provider} got its key`);
        keyed.add(entry.provider);
      } else {
        assert.ok(!wire.includes(secret), `${entry.provider} received a foreign secret`);
      }
    }
  }
  assert.deepEqual([...keyed].sort(), ["bing", "crux", "opr", "psi"]);
  assert.ok(fakes.log.some((e) => e.provider === "token") && fakes.log.some((e) => e.provider === "gsc"));
  const out = `${logs.join("\n")}\n${texts.join("\n")}`;
  for (const secret of secrets) assert.ok(!out.includes(secret), "a secret reached a log line or a result");
});
