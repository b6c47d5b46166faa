import assert from "node:assert/strict";
import { test } from "node:test";
import { v } from "../../../deps.ts";
import type { CallToolResult } from "../../../deps.ts";
import { mcpHttpHandler } from "../../../src/shared/mcp/http.ts";
import { serveWithSdk } from "../../../src/shared/mcp/sdk-http.ts";
import { defineMcp } from "../../../src/shared/mcp/server.ts";
import { createToolTasks, type TaskWork } from "../../../src/shared/mcp/tasks.ts";
import { defineTool } from "../../../src/shared/mcp/tool.ts";

const LIMITS = { maxRunning: 2, maxKept: 2, ttlMs: 1000, pollIntervalMs: 10 };
const ok = (text: string): CallToolResult => ({ content: [{ type: "text", text }] });

/** Work that ends when the test says so. */
function held(): { work: TaskWork; finish(result: CallToolResult): void; fail(err: Error): void; signal?: AbortSignal } {
  let settle: { resolve(r: CallToolResult): void; reject(e: Error): void } | undefined;
  const handle = {
    work: ((signal: AbortSignal, progress: (m: string) => void) => {
      handle.signal = signal;
      progress("1 page crawled");
      return new Promise<CallToolResult>((resolve, reject) => {
        settle = { resolve, reject };
      });
    }) as TaskWork,
    finish: (result: CallToolResult) => settle?.resolve(result),
    fail: (err: Error) => settle?.reject(err),
    signal: undefined as AbortSignal | undefined,
  };
  return handle;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test("tasks: bounded running tasks, progress as status, completed and failed ends, ttl capped", async () => {
  let clock = 0;
  const tasks = createToolTasks(LIMITS, () => clock);
  const [a, b, c] = [held(), held(), held()];
  const first = tasks.start(60_000, a.work);
  assert.deepEqual({ status: first.status, ttl: first.ttl, poll: first.pollInterval }, { status: "working", ttl: 1000, poll: 10 });
  assert.equal((await tasks.store.getTask(first.taskId))?.statusMessage, "1 page crawled");
  const second = tasks.start(undefined, b.work);
  assert.throws(() => tasks.start(undefined, c.work), /RATE_LIMITED: 2 tasks are already working/);

  a.finish(ok("done"));
  b.fail(new Error("boom"));
  await tick();
  assert.equal((await tasks.store.getTask(first.taskId))?.status, "completed");
  assert.deepEqual(await tasks.store.getTaskResult(first.taskId), ok("done"));
  const failed = await tasks.store.getTask(second.taskId);
  assert.equal(failed?.status, "failed");
  assert.match(JSON.stringify(await tasks.store.getTaskResult(second.taskId)), /INTERNAL: the task failed unexpectedly \(boom\)/);
  await assert.rejects(tasks.store.updateTaskStatus(first.taskId, "cancelled"), /already ended \(completed\)/);

  const error = held();
  const third = tasks.start(undefined, error.work);
  error.finish({ isError: true, content: [{ type: "text", text: "INVALID_ARGUMENTS: x" }] });
  await tick();
  assert.equal((await tasks.store.getTask(third.taskId))?.status, "failed", "an isError answer fails the task, as the spec says");
  // At most two ended tasks are kept: the oldest went.
  assert.equal(await tasks.store.getTask(first.taskId), null);
  clock += 1000;
  assert.deepEqual((await tasks.store.listTasks()).tasks, [], "ended tasks go after their ttl");
  await assert.rejects(tasks.store.getTaskResult(third.taskId), /Task not found/);
  await assert.rejects(tasks.store.updateTaskStatus(third.taskId, "cancelled"), /Task not found/);
  await assert.rejects(tasks.store.createTask({}, 1, { method: "tools/call" }), /created by tools\/call/);
  await assert.rejects(tasks.store.storeTaskResult(third.taskId, "completed", {}), /stored when its work ends/);
});

test("tasks: cancelling aborts the work, keeps the status cancelled and its late answer as the result", async () => {
  const tasks = createToolTasks(LIMITS);
  const work = held();
  const task = tasks.start(undefined, work.work);
  await tasks.store.updateTaskStatus(task.taskId, "input_required");
  assert.equal((await tasks.store.getTask(task.taskId))?.status, "input_required");
  await tasks.store.updateTaskStatus(task.taskId, "cancelled", "stop");
  assert.equal(work.signal?.aborted, true);
  const result = tasks.store.getTaskResult(task.taskId);
  work.finish(ok("partial"));
  assert.deepEqual(await result, ok("partial"));
  assert.deepEqual(await tasks.store.getTask(task.taskId).then((t) => [t?.status, t?.statusMessage]), ["cancelled", "stop"]);
});

test("tasks/list pages by cursor and refuses an unknown one", async () => {
  const tasks = createToolTasks({ ...LIMITS, maxRunning: 60 });
  const ids = Array.from({ length: 55 }, () => tasks.start(undefined, held().work).taskId);
  const first = await tasks.store.listTasks();
  assert.equal(first.tasks.length, 50);
  assert.equal(first.nextCursor, ids[49]);
  const rest = await tasks.store.listTasks(first.nextCursor);
  assert.deepEqual(rest.tasks.map((t) => t.taskId), ids.slice(50));
  assert.equal(rest.nextCursor, undefined);
  await assert.rejects(tasks.store.listTasks("nope"), /unknown cursor/);
});

const echo = defineTool({
  name: "echo",
  title: "Echo",
  description: "Echoes a word",
  input: v.object({ word: v.string() }),
  taskSupport: "optional",
  async run({ word }) {
    return { structured: { word }, text: word };
  },
});
const plain = defineTool({ ...echo, name: "plain", taskSupport: undefined });
const HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const post = (body: unknown) => new Request("http://t.test/mcp", { method: "POST", headers: HEADERS, body: JSON.stringify(body) });
const call = (name: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: { word: "hi" }, task: { ttl: 5 } } });

test("a server with tasks: initialize declares them as the SDK answers; listing and -32601 for a tool without task support", async () => {
  const definition = defineMcp({ name: "t", version: "1", tasks: true }, [echo, plain]);
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } };
  const quick = await (await mcpHttpHandler(definition)(post(init))).json();
  const sdk = await (await serveWithSdk(definition, post(init), init, undefined)).json();
  assert.deepEqual(quick, sdk);
  assert.deepEqual((quick as { result: { capabilities: unknown } }).result.capabilities, {
    tools: {},
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  });
  assert.deepEqual(definition.listing.map((t) => t.execution), [{ taskSupport: "optional" }, undefined]);

  const handler = mcpHttpHandler(definition);
  const created = (await (await handler(post(call("echo")))).json()) as { result: { task: { taskId: string; ttl: number } } };
  assert.equal(created.result.task.ttl, 5);
  const refused = (await (await handler(post(call("plain")))).json()) as { error: { code: number; message: string } };
  assert.equal(refused.error.code, -32601);
  assert.match(refused.error.message, /plain does not run as a task; call it without task/);
});

test("a server without tasks answers a task-augmented call normally, as the protocol asks", async () => {
  const handler = mcpHttpHandler(defineMcp({ name: "t", version: "1" }, [echo]));
  const answer = (await (await handler(post(call("echo")))).json()) as { result: { structuredContent: unknown } };
  assert.deepEqual(answer.result.structuredContent, { word: "hi" });
});
