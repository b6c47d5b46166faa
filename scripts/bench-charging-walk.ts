/**
 * Why the charging search walks the kdbush tree itself (src/charging/search/) instead of calling
 * geokdbush's `around`: the same near queries over the same index, answered (a) as the store
 * answers them, a page by `nearestIn` and the total by `countIn`, both pausing every 5 ms, and
 * (b) through geokdbush, the page by `around(…, limit, radius)` and the total by
 * `around(…, Infinity, radius).length` (its only way to count). Prints per radius the p50 of
 * each and the longest stretch each held the event loop. Not part of `npm test`.
 *
 * Usage: node scripts/bench-charging-walk.ts [--sites 1000000] [--queries 40]
 * @module
 */
import { parseArgs } from "node:util";
import { around } from "geokdbush";
import KDBush from "kdbush";
import { kmOf } from "../src/charging/search/geo.ts";
import { nearestIn } from "../src/charging/search/nearest.ts";
import { createPacer } from "../src/charging/search/pacer.ts";
import { circle } from "../src/charging/search/region.ts";
import { countIn } from "../src/charging/search/walk.ts";

const { values } = parseArgs({ options: { sites: { type: "string", default: "1000000" }, queries: { type: "string", default: "40" } } });
const SITES = Number(values.sites);
const QUERIES = Number(values.queries);

let seed = 42;
const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);

/** Sites over Europe, half around 300 towns. */
function index(): KDBush {
  const towns = Array.from({ length: 300 }, () => [-9 + rand() * 38, 36 + rand() * 24] as const);
  const tree = new KDBush(SITES);
  for (let i = 0; i < SITES; i++) {
    const town = towns[i % towns.length] as readonly [number, number];
    if (i % 2 === 0) tree.add(town[0] + (rand() - 0.5) * 0.6, town[1] + (rand() - 0.5) * 0.4);
    else tree.add(-9 + rand() * 38, 36 + rand() * 24);
  }
  return tree.finish();
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function ours(tree: KDBush, lng: number, lat: number, km: number): Promise<{ ms: number; hold: number; total: number }> {
  let hold = 0;
  let since = performance.now();
  const yieldNow = async () => {
    hold = Math.max(hold, performance.now() - since);
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
  const start = performance.now();
  const pacer = createPacer({ yieldNow });
  const region = circle(lng, lat, km);
  const page = await nearestIn(tree, SITES, { lng, lat }, region, undefined, 20, pacer);
  const total = await countIn(tree, SITES, region, undefined, pacer);
  hold = Math.max(hold, performance.now() - since);
  if (page.rows.length > 0 && kmOf(page.dists.at(-1) as number) > km + 1e-6) throw new Error("outside the radius");
  return { ms: performance.now() - start, hold, total };
}

function theirs(tree: KDBush, lng: number, lat: number, km: number): { ms: number; hold: number; total: number } {
  const start = performance.now();
  around(tree, lng, lat, 20, km);
  const total = around(tree, lng, lat, Infinity, km).length;
  const ms = performance.now() - start;
  return { ms, hold: ms, total };
}

const tree = index();
console.log(`| radius | store p50 ms | store longest hold ms | geokdbush p50 ms | geokdbush longest hold ms |`);
console.log(`|---|---|---|---|---|`);
for (const km of [10, 50, 500]) {
  const a: { ms: number; hold: number }[] = [];
  const b: { ms: number; hold: number }[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const [lng, lat] = [-5 + rand() * 30, 40 + rand() * 18];
    const mine = await ours(tree, lng, lat, km);
    const other = theirs(tree, lng, lat, km);
    if (mine.total !== other.total) throw new Error(`totals differ: ${mine.total} and ${other.total}`);
    a.push(mine);
    b.push(other);
  }
  const fmt = (x: number) => x.toFixed(1);
  console.log(`| ${km} km | ${fmt(p50(a.map((x) => x.ms)))} | ${fmt(Math.max(...a.map((x) => x.hold)))} | ${fmt(p50(b.map((x) => x.ms)))} | ${fmt(Math.max(...b.map((x) => x.hold)))} |`);
}
