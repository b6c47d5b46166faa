/** Stored reports as MCP resources, read in-process: through the SDK server and through the handler stdio and gateways use. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import { loadConfig } from "../../../src/seo/config.ts";
import { createSeoHandler } from "../../../src/seo/handler.ts";
import { reportResources } from "../../../src/seo/tools/report-resources.ts";
import { bigReport } from "../fakes/big-report.ts";
import { connect } from "../fakes/client.ts";
import { recordingDeps } from "../fakes/setup.ts";

async function stored() {
  const reports = memoryReportStore();
  const id = await reports.save(bigReport(300));
  return { reports, id };
}

test("report resources: the report, a check's URLs page by page, and nothing for what the templates do not make", async () => {
  const { reports, id } = await stored();
  const read = reportResources(reports);
  const whole = await read(`seo-report://${id}`);
  assert.equal(whole?.mimeType, "application/json");
  assert.equal((JSON.parse(whole?.text ?? "{}") as { report_id: string }).report_id, id);

  const first = JSON.parse((await read(`seo-report://${id}/checks/open-graph-incomplete`))?.text ?? "{}") as { next_cursor?: string };
  assert.equal(first.next_cursor, "50");
  const uri = `seo-report://${id}/checks/open-graph-incomplete?cursor=${first.next_cursor}`;
  const second = JSON.parse((await read(uri))?.text ?? "{}") as { range?: { from: number } };
  assert.match(JSON.stringify(second), /"from":50/);
  // A percent-encoded id reads the same report; a malformed escape is read as written (and finds none).
  assert.ok(await read(`seo-report://${encodeURIComponent(id)}`));
  assert.equal(await read("seo-report://audit-%E0%A4%A"), undefined);
  for (const other of ["seo-report://audit-20990101T000000-none", "file:///etc/passwd", `seo-report://${id}/pages/1`, "seo-report://"])
    assert.equal(await read(other), undefined, other);
});

test("report resources: the SDK server lists the templates and reads them; a gateway without the crawl has none", async () => {
  const { reports, id } = await stored();
  const connected = await connect(loadConfig({ env: {} }), { crawl: { fetch: globalThis.fetch, reports } });
  try {
    const { resourceTemplates } = await connected.client.listResourceTemplates();
    assert.equal(resourceTemplates.length, 2);
    const { contents } = await connected.client.readResource({ uri: `seo-report://${id}` });
    assert.match(JSON.stringify(contents), new RegExp(id));
    const stored = await connected.client.callTool({ name: "seo_audit_site", arguments: { report_id: id } });
    assert.deepEqual(
      (stored.content as { type: string; uri?: string }[]).filter((c) => c.type === "resource_link").map((c) => c.uri),
      [`seo-report://${id}`],
    );
  } finally {
    await connected.close();
  }
  const gateway = await connect(loadConfig({ env: {} }), { crawl: undefined });
  try {
    assert.equal(gateway.client.getServerCapabilities()?.resources, undefined);
  } finally {
    await gateway.close();
  }
});

test("report resources: the handler reads them over its MCP route", async () => {
  const { reports, id } = await stored();
  const handler = createSeoHandler({ provider: recordingDeps(), config: loadConfig({ env: {} }), crawl: { fetch: globalThis.fetch, reports }, egress: "open" });
  const answer = await handler(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: `seo-report://${id}/checks/image-missing-alt` } }),
    }),
  );
  const text = await answer.text();
  assert.equal(answer.status, 200, text);
  assert.match(text, /image-missing-alt/);
  assert.match(text, /application\/json/);
});
