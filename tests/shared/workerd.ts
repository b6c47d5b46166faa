/**
 * Test helper: runs a built Workers bundle inside a real workerd (the `miniflare` npm package,
 * offline) and gives its loopback URL. Outbound fetches from the worker reach loopback fakes.
 * @module
 */
import { dirname, resolve } from "node:path";
import { Miniflare } from "miniflare";

export interface RunningWorker {
  /** The worker's loopback origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** A fetch through miniflare's dispatcher (no socket of the test's own). */
  dispatch(input: string, init?: RequestInit): Promise<Response>;
  dispose(): Promise<void>;
}

export interface WorkerOptions {
  /** The built ES-module bundle, e.g. `dist/seo-gateway.js`. */
  scriptPath: string;
  /** Text bindings: the worker's `env` (vars and secrets alike). */
  bindings?: Record<string, string>;
  compatibilityDate?: string;
  compatibilityFlags?: string[];
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const mf = new Miniflare({
    modules: true,
    scriptPath: resolve(options.scriptPath),
    // Module names are paths relative to this root; workerd refuses names that climb out of it.
    modulesRoot: dirname(resolve(options.scriptPath)),
    compatibilityDate: options.compatibilityDate ?? "2025-09-01",
    compatibilityFlags: options.compatibilityFlags ?? [],
    bindings: options.bindings ?? {},
    host: "127.0.0.1",
    port: 0,
  });
  const url = (await mf.ready).origin;
  return {
    url,
    dispatch: async (input, init) => (await mf.dispatchFetch(new URL(input, url).href, init as never)) as unknown as Response,
    dispose: () => mf.dispose(),
  };
}
