/**
 * The one sleep-with-abort: providers wait with it (and reject on abort); the crawler's host
 * gate waits with it and stops waiting on abort.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { sleep } from "../../src/shared/sleep.ts";

test("sleep() waits about ms, and not at all for ms <= 0", async () => {
  const began = performance.now();
  await sleep(30);
  assert.ok(performance.now() - began >= 25);
  await sleep(0);
  await sleep(-5);
});

test("sleep() rejects with the signal's reason at once when it aborts, and before starting when aborted", async () => {
  const controller = new AbortController();
  const reason = new Error("stop");
  const began = performance.now();
  const waiting = sleep(60_000, controller.signal);
  setTimeout(() => controller.abort(reason), 10);
  await assert.rejects(waiting, (err) => err === reason);
  assert.ok(performance.now() - began < 5_000, "the timer did not run out");
  await assert.rejects(sleep(0, controller.signal), (err) => err === reason);
});

test("sleep() leaves no listener on a signal that outlives it", async () => {
  const controller = new AbortController();
  let added = 0;
  let removed = 0;
  const { signal } = controller;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<AbortSignal["addEventListener"]>) => {
    added++;
    add(...args);
  };
  signal.removeEventListener = (...args: Parameters<AbortSignal["removeEventListener"]>) => {
    removed++;
    remove(...args);
  };
  await sleep(5, signal);
  assert.equal(added, 1);
  assert.equal(removed, 1);
});
