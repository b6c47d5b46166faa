/**
 * The Workers build's store, opened and prepared when the isolate starts (this module's
 * evaluation), as the Node server prepares its store at start: the filter index, reference
 * counts and sync order are built before the first request, not by the first query that
 * needs one. It is all CPU over the embedded data (4,461 sites, a few milliseconds), which
 * fits the isolate's start-up budget; global scope allows no timers, so the preparation
 * yields with a resolved promise instead of the default zero timeout (workerd's clock does not
 * advance while code runs, so the pacer would not pause anyway).
 * @module
 */
import { createStore, openSnapshot, type Store } from "../../src/charging/mod.ts";
import { embeddedSnapshot } from "../embedded/charging-snapshot.ts";

export const store: Store = createStore(openSnapshot(embeddedSnapshot()), { yieldNow: () => Promise.resolve() });

/** Settles once the store is prepared; a failure is logged, and queries then build what they need themselves. */
export const prepared: Promise<void> = store
  .prepare()
  .catch((err: unknown) => console.error(`charging: preparing the data set failed: ${err instanceof Error ? err.message : String(err)}`));
