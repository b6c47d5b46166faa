/**
 * Lazy loading: `once(load)` runs `load` on the first call and hands every caller the same
 * promise, so a module imported on first use is imported once.
 * @module
 */

/** `load` run once, on first use. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
