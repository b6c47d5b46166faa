/**
 * seo_audit_site as an MCP task over real stdio (the server spawned from source, driven by the
 * SDK client): a task-augmented call answers at once, tasks/get reports progress, tasks/result
 * is the plain call's answer, tasks/cancel stops the crawl; a plain call still gets progress.
 * The fixture site holds one page until the test lets it go, so "still working" is a state the
 * test controls, not a race.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";

const html = (title: string, links: string[]) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | Tasks fixture</title></head>` +
  `<body><h1>${title}</h1>${links.map((l) => `<a href="${l}">${l}</a>`).join(" ")}</body></html>`;

/**
 * A three-page site whose /slow page, while `held` is set, sends its headers and first bytes at
 * once (so its time to first byte, which the audit judges, is the same as unheld) and the rest
 * when released.
 */
let site: { url: string; held: boolean; slowAsked: number; waiting: ServerResponse[]; close(): Promise<void> };
let cache: string;

before(async () => {
  cache = mkdtempSync(join(tmpdir(), "seo-tasks-"));
  const state = { held: true, slowAsked: 0, waiting: [] as ServerResponse[] };
  const server = createServer((req, res) => {
    const page = (title: string, links: string[]) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(html(title, links));
    };
    if (req.url === "/") return page("Home", ["/a", "/slow"]);
    if (req.url === "/a") return page("Page A", ["/"]);
    if (req.url === "/slow") {
      state.slowAsked += 1;
      const body = html("Slow page", ["/"]);
      if (!state.held) return page("Slow page", ["/"]);
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.write(body.slice(0, 40));
      return void state.waiting.push(res);
    }
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site = Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
});
after(async () => {
  await site.close();
  rmSync(cache, { recursive: true, force: true });
});

/** Lets every held /slow request answer, and the next ones answer at once. */
function release() {
  site.held = false;
  for (const res of site.waiting.splice(0)) res.end(html("Slow page", ["/"]).slice(40));
}

async function connect(): Promise<{ client: Client; errors: Error[] }> {
  const client = new Client({ name: "seo-tasks-test", version: "1" });
  const errors: Error[] = [];
  client.onerror = (err) => errors.push(err);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "shim/node/seo/bin.ts", "mcp"],
    env: { PATH: process.env.PATH ?? "", SEO_CACHE_DIR: cache },
    stderr: "ignore",
  });
  await client.connect(transport);
  return { client, errors };
}

const until = async (check: () => Promise<boolean> | boolean, what: string) => {
  for (let waited = 0; !(await check()); waited += 50) {
    if (waited > 30_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const ARGS = { min_interval_ms: 0, max_pages: 10 };

/** The structured answer without what differs between two audits of the same site: ids, times, durations. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (/report_id|_at$|time|_ms$|duration|elapsed|seconds/i.test(key)) continue;
    out[key] = comparable(inner);
  }
  return out;
}

const startTask = (client: Client, args: Record<string, unknown>) =>
  client.request(
    { method: "tools/call", params: { name: "seo_audit_site", arguments: { url: site.url, ...ARGS, ...args }, task: { ttl: 600_000 } } },
    CreateTaskResultSchema,
  );

test("stdio tasks: declared for seo_audit_site only; a task answers at once, reports progress, and its result is the plain call's answer", async () => {
  site.held = true;
  const { client, errors } = await connect();
  try {
    assert.deepEqual(client.getServerCapabilities()?.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    assert.deepEqual(
      Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport])),
      { seo_audit_site: "optional", seo_page_report: "forbidden", seo_keyword_ideas: "forbidden", seo_rank_check: "forbidden", seo_authority: "forbidden" },
    );

    const created = await startTask(client, {});
    const { taskId } = created.task;
    assert.equal(created.task.status, "working");
    assert.equal(created.task.ttl, 600_000);
    assert.ok((created.task.pollInterval ?? 0) > 0);
    assert.match(String(created._meta?.["io.modelcontextprotocol/model-immediate-response"]), /tasks\/result/);

    await until(() => site.slowAsked > 0, "the crawl to reach /slow");
    await until(async () => /\d+ pages? crawled/.test((await client.experimental.tasks.getTask(taskId)).statusMessage ?? ""), "a progress status");
    const working = await client.experimental.tasks.getTask(taskId);
    assert.equal(working.status, "working");
    assert.ok((await client.experimental.tasks.listTasks()).tasks.some((t) => t.taskId === taskId));

    release();
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    assert.equal((await client.experimental.tasks.getTask(taskId)).status, "completed");
    assert.equal(result.isError, undefined);
    assert.equal((result._meta?.["io.modelcontextprotocol/related-task"] as { taskId?: string } | undefined)?.taskId, taskId);
    const id = (result.structuredContent as { report_id: string }).report_id;
    assert.ok(result.content.some((c) => c.type === "resource_link" && c.uri === `seo-report://${id}`), "the report is linked");

    const progress: number[] = [];
    const plain = await client.callTool({ name: "seo_audit_site", arguments: { url: site.url, ...ARGS } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    assert.ok(progress.length >= 1, "a plain call still gets progress notifications");
    assert.deepEqual(comparable(result.structuredContent), comparable(plain.structuredContent));
    assert.deepEqual(result.content.map((c) => c.type), (plain.content as { type: string }[]).map((c) => c.type));

    await assert.rejects(client.experimental.tasks.getTask("no-such-task"), /-32602|Task not found/);
    await assert.rejects(client.experimental.tasks.getTaskResult("no-such-task"), /-32602|Task not found/);
    await assert.rejects(client.experimental.tasks.cancelTask(taskId), /-32602|terminal/);
    await assert.rejects(
      client.request(
        { method: "tools/call", params: { name: "seo_keyword_ideas", arguments: { query: "x" }, task: {} } },
        CreateTaskResultSchema,
      ),
      /-32601|does not run as a task/,
    );
  } finally {
    await client.close();
  }
  // See tests/shim/node/seo/stdio-bridge.test.ts: the SDK client may drop the last progress before a result.
  assert.deepEqual(errors.filter((e) => !/progress notification for an unknown token/.test(e.message)), []);
});

test("stdio tasks: tasks/cancel stops the crawl mid-way; the task ends cancelled with the partial report", async () => {
  site.held = true;
  site.slowAsked = 0;
  const { client, errors } = await connect();
  try {
    const { task } = await startTask(client, { max_pages: 50 });
    await until(() => site.slowAsked > 0, "the crawl to reach /slow");
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    assert.equal(cancelled.status, "cancelled");
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    assert.equal((await client.experimental.tasks.getTask(task.taskId)).status, "cancelled");
    assert.match(JSON.stringify(result.structuredContent), /"truncation_reasons":\["cancelled"\]/, "the partial report says it was cancelled");
  } finally {
    release();
    await client.close();
  }
  assert.deepEqual(errors, []);
});
