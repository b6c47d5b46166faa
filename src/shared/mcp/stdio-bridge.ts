/**
 * MCP over stdio as a thin bridge to a Fetch handler: each newline-delimited JSON-RPC message
 * from the client is POSTed to the handler's stateless `/mcp`, and every message of the answer
 * (one JSON body, or the events of an SSE stream: progress notifications, then the result) is
 * written back in order. A `notifications/cancelled` from the client aborts the signal of the
 * request it names, which the handler turns into an aborted tool; nothing is written for a
 * cancelled request afterwards, as the protocol asks. Runtime-free: the adapter reads stdin and
 * writes stdout.
 * @module
 */
import { createEventSourceParser } from "../../../deps.ts";

type RpcId = string | number;

interface StdioBridgeOptions {
  /** The service's Fetch handler; only its `/mcp` route is used. */
  handler: (request: Request) => Promise<Response>;
  /** Writes one JSON-RPC message (a single line, without the newline). */
  write(message: string): void;
}

export interface StdioBridge {
  /** Takes one line read from the client. */
  receive(line: string): void;
  /** Aborts everything in flight and resolves once it has settled (the client hung up). */
  close(): Promise<void>;
}

const HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const INTERNAL = -32603;
const ENDPOINT = "http://localhost/mcp";

interface RpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: { requestId?: unknown };
  error?: unknown;
}

const isId = (id: unknown): id is RpcId => typeof id === "string" || typeof id === "number";
const keyOf = (id: RpcId) => `${typeof id}:${id}`;

/** The ids of the requests (not notifications or responses) in a message or batch. */
function requestIds(message: unknown): RpcId[] {
  const items = (Array.isArray(message) ? message : [message]) as (RpcMessage | null)[];
  return items.flatMap((m) => (m && typeof m.method === "string" && isId(m.id) ? [m.id] : []));
}

function isCancellation(message: unknown): message is { params: { requestId: RpcId } } {
  const m = message as RpcMessage | null;
  return m?.method === "notifications/cancelled" && m.id === undefined && isId(m.params?.requestId);
}

const errorLine = (id: RpcId | null, code: number, message: string) =>
  JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });

/** `text` as JSON; undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What an answer that is not JSON-RPC (the typed envelope, say) means for each request. */
function envelopeMessage(parsed: unknown, status: number): string {
  const { code, message } = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error ?? {};
  if (typeof code === "string" && typeof message === "string") return `${code}: ${message}`;
  return `The server answered HTTP ${status} without a JSON-RPC message`;
}

/** Writes each event of an SSE body as one message, until it ends or `signal` aborts. */
async function relayEvents(body: ReadableStream<Uint8Array>, signal: AbortSignal, write: (m: string) => void) {
  const parser = createEventSourceParser({
    onEvent: (event) => {
      if (event.data !== "" && !signal.aborted) write(event.data);
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

/** Writes each message of a JSON answer; one that is not JSON-RPC becomes an error for each request. */
async function relayJson(response: Response, ids: RpcId[], write: (m: string) => void) {
  const text = await response.text();
  if (text === "") return;
  const parsed = parseJson(text);
  const messages = (Array.isArray(parsed) ? parsed : [parsed]) as (RpcMessage | undefined)[];
  if (!messages.every((m) => m?.jsonrpc === "2.0")) {
    const reason = envelopeMessage(parsed, response.status);
    for (const id of ids) write(errorLine(id, INTERNAL, reason));
    return;
  }
  for (const m of messages as RpcMessage[]) {
    // An id-less error (a transport-level refusal) is addressed to the requests it answers, so
    // the client does not wait for them forever.
    if (m.id === null && m.error !== undefined && ids.length > 0) {
      for (const id of ids) write(JSON.stringify({ ...m, id }));
    } else write(JSON.stringify(m));
  }
}

/**
 * Creates the bridge of one stdio client: `inflight` maps each request id to the controller
 * that aborts it (a batch shares one), `pending` holds every forward not yet settled, for `close`.
 */
export function createStdioBridge({ handler, write }: StdioBridgeOptions): StdioBridge {
  const inflight = new Map<string, AbortController>();
  const pending = new Set<Promise<void>>();

  const forward = async (text: string, ids: RpcId[], { signal }: AbortController) => {
    try {
      const response = await handler(new Request(ENDPOINT, { method: "POST", headers: HEADERS, body: text, signal }));
      if (signal.aborted) return void (await response.body?.cancel().catch(() => {}));
      if (response.body && response.headers.get("content-type")?.startsWith("text/event-stream")) {
        await relayEvents(response.body, signal, write);
      } else await relayJson(response, ids, write);
    } catch {
      if (signal.aborted) return;
      for (const id of ids) write(errorLine(id, INTERNAL, "The request failed inside the server; retry it"));
    }
  };

  const track = (text: string, ids: RpcId[]) => {
    const controller = new AbortController();
    for (const id of ids) inflight.set(keyOf(id), controller);
    const task = forward(text, ids, controller).finally(() => {
      for (const id of ids) if (inflight.get(keyOf(id)) === controller) inflight.delete(keyOf(id));
      pending.delete(task);
    });
    pending.add(task);
  };

  return {
    receive(line) {
      const text = line.trim();
      if (text === "") return;
      const message = parseJson(text);
      if (message === undefined) return write(errorLine(null, -32700, "Parse error: a line on stdin is not JSON"));
      if (isCancellation(message)) {
        inflight.get(keyOf(message.params.requestId))?.abort(new Error("cancelled by the client"));
        return;
      }
      track(text, requestIds(message));
    },
    async close() {
      for (const controller of inflight.values()) controller.abort(new Error("the client closed stdin"));
      await Promise.allSettled([...pending]);
    },
  };
}
