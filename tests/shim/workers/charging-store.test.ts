/**
 * The Workers store prepares as the isolate starts: its module's evaluation starts the
 * preparation, which needs no timer (workerd allows none in global scope).
 */
import assert from "node:assert/strict";
import { mock, test } from "node:test";

test("the worker's store is prepared by importing its module, with every timer blocked", async () => {
  mock.timers.enable({ apis: ["setTimeout", "setImmediate", "setInterval"] });
  // Only the store's own lines: Node may print its experimental-API warning meanwhile.
  const failures: string[] = [];
  const logged = mock.method(console, "error", (line: unknown) => {
    if (String(line).startsWith("charging:")) failures.push(String(line));
  });
  try {
    const { prepared, store } = await import("../../../shim/workers/charging-store.ts");
    await prepared;
    assert.deepEqual(failures, [], "the preparation did not fail");
    const reference = await store.reference();
    assert.ok(reference.countries.length > 0);
    const page = await store.search({ countries: ["US"], limit: 1, offset: 0 });
    assert.ok(page.total > 0);
  } finally {
    mock.timers.reset();
    logged.mock.restore();
  }
});
