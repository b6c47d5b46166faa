/**
 * The swappable handler: new requests go to the new data set, a request already running ends
 * on the one it started with, and the replaced data set becomes garbage once that request is
 * done (FinalizationRegistry after forced collections: no timing involved).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createChargingHandler } from "../../src/charging/handler.ts";
import { type ChargingServices, createChargingServices } from "../../src/charging/services.ts";
import { storeOfSites } from "../../src/charging/search/store.ts";
import { createSwappableHandler } from "../../src/charging/swap.ts";
import type { FetchHandler } from "../../src/shared/http/respond.ts";
import { site } from "./data/helpers.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const now = () => new Date("2026-01-01T00:00:00.000Z");

/** A data set of `count` sites named after `cut`, so an answer shows which one it came from. */
function servicesOf(cut: string, count: number): ChargingServices {
  const sites = Array.from({ length: count }, (_, i) => site(`ocm:${i + 1}`, { name: `${cut} ${i + 1}` }));
  return createChargingServices(storeOfSites(sites, { importedAt: now().toISOString(), sources: [] }), { now });
}

/** Builds handlers whose requests wait for `release()` while `held` is set. */
function gatedBuilder() {
  let held = false;
  let waiting: (() => void)[] = [];
  const build = (services: ChargingServices): FetchHandler => {
    const inner = createChargingHandler({ ...services, ratePerMinute: 1_000_000 });
    return async (request, context) => {
      if (held) await new Promise<void>((resolve) => waiting.push(resolve));
      return inner(request, context);
    };
  };
  const hold = () => {
    held = true;
  };
  const release = () => {
    held = false;
    for (const resolve of waiting) resolve();
    waiting = [];
  };
  return { build, hold, release };
}

async function names(handler: FetchHandler): Promise<{ etag: string | null; names: string[] }> {
  const response = await handler(new Request("http://api.test/api/v1/sites?limit=100"));
  const body = (await response.json()) as { data: { name: string }[] };
  return { etag: response.headers.get("etag"), names: body.data.map((s) => s.name) };
}

test("a swap answers new requests from the new data set; a running request ends on the old one", async () => {
  const { build, hold, release } = gatedBuilder();
  const swappable = createSwappableHandler(servicesOf("old", 3), build);
  const before = await names(swappable.handle);
  assert.deepEqual(before.names, ["old 1", "old 2", "old 3"]);
  hold();
  const running = names(swappable.handle);
  const next = servicesOf("new", 4);
  swappable.swap(next);
  assert.equal(swappable.services, next);
  release();
  const after = await names(swappable.handle);
  assert.deepEqual(after.names, ["new 1", "new 2", "new 3", "new 4"]);
  assert.deepEqual(await running, before, "the request that arrived first is answered whole from the old cut, entity tag included");
  assert.notEqual(after.etag, before.etag, "the entity tag names the cut");
});

/** Collects until `done()` or `rounds` rounds: each a full collection, then a turn of the loop for finalizers. */
async function collectUntil(done: () => boolean, rounds = 50): Promise<boolean> {
  for (let round = 0; round < rounds && !done(); round++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return done();
}

test("the replaced data set is garbage once its last request is answered, not before", async () => {
  const { build, hold, release } = gatedBuilder();
  const collected = new Set<string>();
  const registry = new FinalizationRegistry<string>((cut) => collected.add(cut));
  const swappable = (() => {
    const old = servicesOf("old", 50);
    registry.register(old.store, "old");
    return createSwappableHandler(old, build);
  })();
  await names(swappable.handle);
  hold();
  const running = names(swappable.handle);
  swappable.swap(servicesOf("new", 50));
  registry.register(swappable.services.store, "new");
  assert.equal(await collectUntil(() => collected.has("old"), 5), false, "a running request keeps its data set");
  release();
  assert.equal((await running).names[0], "old 1");
  assert.equal(await collectUntil(() => collected.has("old")), true, "nothing keeps the old data set once its request is done");
  assert.equal(collected.has("new"), false);
});
