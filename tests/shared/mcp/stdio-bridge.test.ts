import assert from "node:assert/strict";
import { test } from "node:test";
import { createStdioBridge } from "../../../src/shared/mcp/stdio-bridge.ts";

const rpc = (id: number | string, method: string) => JSON.stringify({ jsonrpc: "2.0", id, method });

function sse(events: unknown[], gapMs = 5): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const event of events) {
        // Split mid-event too: the parser must join chunks.
        const text = `event: message\ndata: ${JSON.stringify(event)}\n\n`;
        controller.enqueue(encoder.encode(text.slice(0, 10)));
        await new Promise((resolve) => setTimeout(resolve, gapMs));
        controller.enqueue(encoder.encode(text.slice(10)));
      }
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

test("createStdioBridge(): posts each line, writes SSE events in order, maps non-JSON-RPC answers to errors", async () => {
  const written: string[] = [];
  const seen: { method: string; accept: string | null; body: string }[] = [];
  const bridge = createStdioBridge({
    write: (line) => written.push(line),
    handler: async (request) => {
      const body = await request.text();
      seen.push({ method: request.method, accept: request.headers.get("accept"), body });
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.method === "stream") {
        return sse([
          { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } },
          { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 2 } },
          { jsonrpc: "2.0", id: message.id, result: { done: true } },
        ]);
      }
      if (message.method === "envelope") {
        return Response.json({ error: { code: "PAYLOAD_TOO_LARGE", message: "too big" } }, { status: 413 });
      }
      if (message.method === "crash") throw new Error("boom with a secret");
      if (message.method === "refused") {
        return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "no" } }, { status: 400 });
      }
      if (message.id === undefined) return new Response(null, { status: 202 });
      return Response.json({ jsonrpc: "2.0", id: message.id, result: {} });
    },
  });
  bridge.receive(rpc(1, "stream"));
  bridge.receive(rpc(2, "envelope"));
  bridge.receive(rpc(3, "crash"));
  bridge.receive(rpc(4, "refused"));
  bridge.receive('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  bridge.receive("   ");
  for (let waited = 0; written.length < 6 && waited < 5000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await bridge.close();
  assert.equal(seen.length, 5, "blank lines are skipped");
  assert.ok(seen.every((s) => s.method === "POST" && s.accept === "application/json, text/event-stream"));
  const parsed = written.map((line) => JSON.parse(line) as { id?: unknown; params?: { progress: number }; error?: { message: string } });
  const streamed = parsed.filter((m) => m.id === 1 || m.params);
  assert.deepEqual(
    streamed.map((m) => m.params?.progress ?? "result"),
    [1, 2, "result"],
  );
  assert.equal(parsed.find((m) => m.id === 2)?.error?.message, "PAYLOAD_TOO_LARGE: too big");
  assert.doesNotMatch(parsed.find((m) => m.id === 3)?.error?.message ?? "", /secret/);
  assert.equal(parsed.find((m) => m.id === 4)?.error?.message, "no", "an id-less error is addressed to its request");
  assert.equal(parsed.length, 6);
});

test("createStdioBridge(): notifications/cancelled aborts the request it names and nothing more is written for it", async () => {
  const written: string[] = [];
  const aborted: unknown[] = [];
  const bridge = createStdioBridge({
    write: (line) => written.push(line),
    handler: async (request) => {
      const { id } = (await request.json()) as { id: unknown };
      return new Promise((resolve) => {
        const stop = () => {
          aborted.push(id);
          resolve(Response.json({ jsonrpc: "2.0", id, result: { late: true } }));
        };
        if (request.signal.aborted) stop();
        else request.signal.addEventListener("abort", stop);
      });
    },
  });
  bridge.receive(rpc(9, "tools/call"));
  bridge.receive(rpc("other", "tools/call"));
  bridge.receive(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } }));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(aborted, [9], "only the named request");
  assert.deepEqual(written, [], "a cancelled request gets no answer");
  await bridge.close();
  assert.deepEqual(aborted, [9, "other"], "closing stdin aborts the rest");
  assert.deepEqual(written, []);
});
