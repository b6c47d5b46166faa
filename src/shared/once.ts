/**
 * Lazy loading: `once(load)` runs `load` on the first call and hands every caller the same
 * promise, so a module imported on first use is imported once.
 * @module
 */

/** `load` run once, on first use (its value, or its one promise, handed to every caller). */
export function once<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
