import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { connect } from "../fakes/client.ts";
import { type Fakes, startFakes } from "../fakes/providers.ts";
import { configFor } from "../fakes/setup.ts";

let fakes: Fakes;
before(async () => {
  fakes = await startFakes();
});
after(() => fakes.close());

interface Row {
  domain: string;
  pageRank: {
    value: number | null;
    provenance: { kind: string; source?: string; code?: string; at?: string };
  };
  trancoRank: {
    value: number | null;
    provenance: { kind: string; source?: string; code?: string; at?: string };
  };
  openPageRankRank?: { value: number | null };
}

test("seo_authority with keys: Open PageRank and Tranco per domain, labelled with source and data date", async () => {
  const mcp = await connect(configFor(fakes, true));
  try {
    const r = await mcp.call("seo_authority", {
      domains: ["https://www.example.com/", "unknown-x.org", "example.com"],
    });
    assert.equal(r.isError, undefined);
    const rows = r.structured.domains as Row[];
    assert.deepEqual(
      rows.map((d) => d.domain),
      ["example.com", "unknown-x.org"],
    );
    const [known, unknown] = rows as [Row, Row];
    assert.deepEqual(known.pageRank, {
      value: 5.27,
      provenance: { kind: "provider", source: "open-pagerank", at: "2026-06-13" },
    });
    assert.deepEqual(known.trancoRank, {
      value: 498,
      provenance: { kind: "provider", source: "tranco", at: "2026-11-20" },
    });
    assert.equal(known.openPageRankRank, undefined, "concise leaves out the secondary values");
    assert.equal(unknown.pageRank.provenance.code, "no-data");
    assert.equal(unknown.trancoRank.provenance.code, "no-data");
    assert.match(
      r.text,
      /example\.com: Open PageRank 5\.27 \[provider: open-pagerank 2026-06-13\]; Tranco rank #498 \[provider: tranco 2026-11-20\]/,
    );

    const detailed = await mcp.call("seo_authority", {
      domains: ["example.com"],
      response_format: "detailed",
    });
    assert.equal((detailed.structured.domains as Row[])[0]?.openPageRankRank?.value, 1234);
  } finally {
    await mcp.close();
  }
});

test("seo_authority without keys: Tranco still answers, Open PageRank says which key to set", async () => {
  const mcp = await connect(configFor(fakes, false));
  try {
    const r = await mcp.call("seo_authority", { domains: ["example.org"] });
    const row = (r.structured.domains as Row[])[0] as Row;
    assert.equal(row.trancoRank.value, 498);
    assert.equal(row.pageRank.value, null);
    assert.equal(row.pageRank.provenance.code, "no-key");
    assert.match(JSON.stringify(r.structured.sources), /SEO_OPR_KEY/);
  } finally {
    await mcp.close();
  }
});

test("seo_authority reports provider outages per source instead of failing", async () => {
  const mcp = await connect(configFor(fakes, true));
  fakes.mode.opr = "5xx";
  try {
    const r = await mcp.call("seo_authority", { domains: ["outage-example.net"] });
    const row = (r.structured.domains as Row[])[0] as Row;
    assert.equal(row.pageRank.provenance.code, "provider-down");
    assert.equal(row.trancoRank.value, 498);
  } finally {
    fakes.mode.opr = "ok";
    await mcp.close();
  }
});

test("seo_authority answers bad inputs with isError and a next step", async () => {
  const mcp = await connect(configFor(fakes, false));
  try {
    const notDomain = await mcp.call("seo_authority", { domains: ["not a domain"] });
    assert.equal(notDomain.isError, true);
    assert.match(notDomain.text, /INVALID_ARGUMENTS: "not a domain" is not a domain name; pass hosts like/);
    const tooMany = await mcp.call("seo_authority", {
      domains: Array.from({ length: 21 }, (_, i) => `d${i}.com`),
    });
    assert.equal(tooMany.isError, true);
    assert.match(tooMany.text, /domains/);
    const empty = await mcp.call("seo_authority", { domains: [] });
    assert.equal(empty.isError, true);
    const format = await mcp.call("seo_authority", { domains: ["a.com"], response_format: "full" });
    assert.match(format.text, /response_format/);
  } finally {
    await mcp.close();
  }
});

test("seo_authority and seo_keyword_ideas report progress to a client that asks for it", async () => {
  const mcp = await connect(configFor(fakes, false));
  try {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    await mcp.client.callTool(
      { name: "seo_authority", arguments: { domains: ["p1.org", "p2.org"] } },
      undefined,
      {
        onprogress: (p) => seen.push(p),
      },
    );
    assert.deepEqual(
      seen.map((p) => [p.progress, p.total]),
      [
        [1, 2],
        [2, 2],
      ],
    );
    const ideas: { message?: string }[] = [];
    await mcp.client.callTool({ name: "seo_keyword_ideas", arguments: { query: "progress" } }, undefined, {
      onprogress: (p) => ideas.push(p),
    });
    assert.equal(ideas.at(-1)?.message, "autocomplete: 111 of 111 queries");
  } finally {
    await mcp.close();
  }
});
