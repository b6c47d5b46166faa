/**
 * The one-walk page of a small region (gatherIn, then nearestAmong) against the two walks it
 * replaces (countIn and nearestIn): the same total, rows and distances, ties included.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { KDBush } from "../../../deps.ts";
import { nearestAmong, nearestIn } from "../../../src/charging/search/nearest.ts";
import { createPacer } from "../../../src/charging/search/pacer.ts";
import { regionOf } from "../../../src/charging/search/region.ts";
import { countIn, gatherIn } from "../../../src/charging/search/walk.ts";

// Coarse coordinates, so that many sites share a distance and ties decide the order.
const point = fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 })).map(([x, y]) => [x / 4, y / 4] as const);
const region = fc.oneof(
  fc.tuple(fc.integer({ min: -6, max: 5 }), fc.integer({ min: -6, max: 5 }), fc.integer({ min: 1, max: 12 })).map(([x, y, w]) => ({ bbox: [x, y, x + w / 2, y + w / 2] as [number, number, number, number] })),
  fc.tuple(point, fc.integer({ min: 1, max: 800 })).map(([[lon, lat], radiusKm]) => ({ near: { lon, lat, radiusKm } })),
);

test("gatherIn + nearestAmong answer what countIn + nearestIn answer (fast-check)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(point, { minLength: 1, maxLength: 300 }), region, fc.integer({ min: 0, max: 40 }), fc.constantFrom(2, 4, 16), fc.boolean(), async (points, q, want, nodeSize, filtered) => {
      const index = new KDBush(points.length, nodeSize);
      for (const [x, y] of points) index.add(x, y);
      index.finish();
      const filter = filtered ? (row: number) => row % 3 !== 0 : undefined;
      const { region: r, origin } = regionOf(q);
      const pacer = createPacer({ sliceMs: 0, yieldNow: async () => {} });
      const gathered = await gatherIn(index, points.length, r, filter, pacer, undefined, 1000);
      assert.equal(gathered.total, await countIn(index, points.length, r, filter, pacer));
      assert.ok(gathered.positions, "a region of at most 300 sites is gathered");
      const walked = await nearestIn(index, points.length, origin as { lng: number; lat: number }, r, filter, want, pacer);
      assert.deepEqual(nearestAmong(index, gathered.positions, origin as { lng: number; lat: number }, want), walked);
    }),
    { numRuns: 200 },
  );
});

test("gatherIn gives up gathering past its room, and still counts", async () => {
  const index = new KDBush(500, 8);
  for (let i = 0; i < 500; i++) index.add((i % 25) / 10, Math.floor(i / 25) / 10);
  index.finish();
  const { region: r } = regionOf({ bbox: [0, 0, 3, 3] });
  const pacer = createPacer();
  assert.deepEqual(await gatherIn(index, 500, r, undefined, pacer, undefined, 499), { total: 500 });
  assert.equal((await gatherIn(index, 500, r, undefined, pacer, undefined, 500)).positions?.length, 500);
});
