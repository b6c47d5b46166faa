/**
 * Benchmark: CPU per distinct bbox search with the charging handler called in process (no
 * HTTP), for two checkouts of this repository side by side, e.g. a worktree of an earlier
 * commit and this one: each checkout's handler is loaded from its own sources, both are first
 * checked to give the same body and header lines for a few queries, then timed in alternating
 * rounds of `--queries` distinct boxes (a new box per query, as map pans make), CPU from
 * `process.cpuUsage`. What it leaves out (Node's HTTP parsing and writing) is the bare server's
 * cost too; what it keeps is the work a miss adds over it, with less noise than the server.
 *
 * Usage: node scripts/bench-charging-inproc.ts <checkout A> <checkout B> [--rounds 8] [--queries 4000] [--compressed]
 * (`--compressed`: the requests send a browser's `accept-encoding: br, gzip`)
 * @module
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: "string", default: "8" }, queries: { type: "string", default: "4000" }, compressed: { type: "boolean", default: false } },
});
if (positionals.length !== 2) throw new Error("usage: node scripts/bench-charging-inproc.ts <checkout A> <checkout B> [--rounds 8] [--queries 4000] [--compressed]");
const checkouts = positionals.map((path) => resolve(path));
const headers: Record<string, string> = values.compressed ? { "accept-encoding": "br, gzip" } : {};

type Handler = (request: Request, context: { clientAddress: string }) => Promise<Response>;
interface Loaded {
  handle: Handler;
  bodyOf: (response: Response) => Uint8Array | string | undefined;
}

/** The handler as `dist/charging.js` builds it, from `root`'s sources, the rate limit out of the way. */
async function handlerOf(root: string): Promise<Loaded> {
  const app = await import(`${root}/shim/node/charging/app.ts`);
  const mod = await import(`${root}/src/charging/mod.ts`);
  const { bodyOf } = await import(`${root}/src/shared/http/respond.ts`);
  const { compressFast, NODE_ENCODINGS } = await import(`${root}/shim/node/charging/compress.ts`);
  const config = mod.parseChargingEnv({ CHARGING_RATE_LIMIT: "1000000000" });
  const store = await app.loadStore();
  await store.prepare();
  const rateLimiter = mod.createRateLimiter({ limit: 1e9, windowMs: 60_000, maxClients: 50_000 });
  const handle = mod.createChargingHandler({ ...app.servicesFor(store, config), ...config, log: () => {}, encodings: NODE_ENCODINGS, compress: compressFast, rateLimiter });
  return { handle, bodyOf };
}

/** Boxes of 0.02 degree in Paris, each shifted by a tenth of a micro-degree more than the last. */
const BOX = [2.3422, 48.8466, 2.3622, 48.8666];
let shift = 0;
const nextUrl = () => {
  const d = (shift++ % 1e6) * 1e-7;
  return `http://localhost/api/v1/sites?bbox=${BOX.map((x) => (x + d).toFixed(7)).join(",")}`;
};
const ask = (loaded: Loaded, url: string) => loaded.handle(new Request(url, { headers }), { clientAddress: "127.0.0.1" });

async function sameAnswers(loaded: Loaded[]): Promise<void> {
  for (let k = 0; k < 5; k++) {
    const url = nextUrl();
    const seen = await Promise.all(loaded.map(async (one) => {
      const response = await ask(one, url);
      return `${Buffer.from(one.bodyOf(response) ?? "").toString("latin1")}\n${JSON.stringify([...response.headers])}`;
    }));
    if (seen[0] !== seen[1]) throw new Error(`the checkouts answer ${url} differently`);
  }
}

/** CPU µs per query over `queries` distinct queries. */
async function round(loaded: Loaded, queries: number): Promise<number> {
  const start = process.cpuUsage();
  let lines = 0;
  for (let k = 0; k < queries; k++) {
    const response = await ask(loaded, nextUrl());
    loaded.bodyOf(response);
    // The header lines are read, as an adapter writing them would.
    response.headers.forEach(() => lines++);
  }
  const used = process.cpuUsage(start);
  if (lines === 0) throw new Error("answers without header lines");
  return (used.user + used.system) / queries;
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const loaded = await Promise.all(checkouts.map(handlerOf));
await sameAnswers(loaded);
const queries = Number(values.queries);
for (const one of loaded) for (let k = 0; k < 2; k++) await round(one, queries);
const figures: number[][] = [[], []];
for (let k = 0; k < Number(values.rounds); k++) {
  for (const i of k % 2 ? [1, 0] : [0, 1]) figures[i]?.push(await round(loaded[i] as Loaded, queries));
}
checkouts.forEach((root, i) => {
  const rounds = figures[i] as number[];
  process.stdout.write(`${root}: median ${median(rounds).toFixed(1)} µs CPU a query (rounds ${rounds.map((x) => x.toFixed(1)).join(" / ")})\n`);
});
