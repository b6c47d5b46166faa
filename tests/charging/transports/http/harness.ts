/** Shared set-up of the in-process handler tests: the test sites, a settable clock, a caller. */
import assert from "node:assert/strict";
import { type ChargingHandlerOptions, createChargingHandler } from "../../../../src/charging/handler.ts";
import { createStatusService } from "../../../../src/charging/status/service.ts";
import { storeOfSites } from "../../../../src/charging/search/store.ts";
import { SITES } from "./sites.ts";

export const store = storeOfSites(SITES);
let clock = new Date("2020-01-01T00:30:00.000Z");
export const setClock = (at: string) => {
  clock = new Date(at);
};
export const status = createStatusService(store, { now: () => clock });

export const make = (extra: Partial<ChargingHandlerOptions> = {}) =>
  createChargingHandler({ store, status, ...extra });
export const base = "http://api.test";
export type Envelope = { error: { code: string; message: string } };

/** On /mcp a guard's refusal is a JSON-RPC error (as on the SEO gateway), its message `CODE: ...`. */
export function assertJsonRpcRefusal(body: unknown, code: string, rpcCode = -32000): void {
  const { jsonrpc, error, id } = body as { jsonrpc: string; error: { code: number; message: string }; id: null };
  assert.equal(jsonrpc, "2.0");
  assert.equal(id, null);
  assert.equal(error.code, rpcCode);
  assert.ok(error.message.startsWith(`${code}: `), error.message);
}

export async function call(
  handler: ReturnType<typeof make>,
  path: string,
  init: RequestInit = {},
  peer = "127.0.0.1",
) {
  const response = await handler(new Request(base + path, init), { clientAddress: peer });
  const text = await response.text();
  return {
    response,
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}
