/**
 * Fresh data without a restart: the server reads `CHARGING_DATA` again on SIGHUP and when the
 * file is replaced (renamed over, as `charging import` and `charging refresh` do). The
 * directory is watched, not the file: a rename gives the path a new inode, which a watch on the
 * old one would never report. Events are debounced and a reload runs only when the file's
 * identity (inode, size, mtime) changed. Reloads run one at a time. A file that does not open
 * (truncated, bad CRC, wrong format) is refused with one line and the old data keeps serving.
 * @module
 */
import { type FSWatcher, watch } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { messageOf, type Store } from "../../../src/charging/mod.ts";

/** Events closer together than this are one replacement (a copy, then a rename). */
export const RELOAD_DEBOUNCE_MS = 250;

export interface DataReloadOptions {
  path: string;
  /** The identity of the file the current store was read from (see `fileIdentity`). */
  identity: string | undefined;
  load(path: string): Promise<Store>;
  /** Serves `store` to new requests from now on. */
  swap(store: Store): void;
  /** The store serving now (named in the log lines). */
  current(): Store;
  log(line: string): void;
  debounceMs?: number;
}

export interface DataReloader {
  /** Reads the file again and swaps to it; false when it was refused. */
  reload(why: string): Promise<boolean>;
  /** Stops watching and listening for SIGHUP. */
  close(): void;
}

/** What changes when the file is replaced or rewritten; undefined when it cannot be read. */
export async function fileIdentity(path: string): Promise<string | undefined> {
  try {
    const s = await stat(path);
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}

const describe = (store: Store) => `${store.size} sites, snapshot ${store.version}, imported ${store.header.importedAt}`;

/** Loads, swaps and logs one reload; a refused file leaves the current store in place. */
async function reloadOnce(options: DataReloadOptions, why: string): Promise<boolean> {
  const { path, log } = options;
  let store: Store;
  try {
    store = await options.load(path);
  } catch (err) {
    const reason = messageOf(err);
    log(`charging: refused new data (${why}): ${reason}; still serving ${describe(options.current())}`);
    return false;
  }
  const before = options.current();
  options.swap(store);
  log(`charging: data reloaded (${why}): ${describe(store)} (was ${before.size} sites, snapshot ${before.version})`);
  return true;
}

/** Watches `dirname(path)`, calling `changed` once per burst of events. */
function watchDirectory(path: string, changed: () => void, debounceMs: number, log: (line: string) => void): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(dirname(path), { persistent: false }, () => {
    clearTimeout(timer);
    timer = setTimeout(changed, debounceMs);
  });
  watcher.on("error", (err) => log(`charging: stopped watching ${path} (${err.message}); send SIGHUP to reload`));
  watcher.on("close", () => clearTimeout(timer));
  return watcher;
}

/** Reloads `options.path` on SIGHUP and when the file is replaced. */
export function reloadDataOnChange(options: DataReloadOptions): DataReloader {
  // The identity last tried: a refused file is not tried again until it changes (or SIGHUP).
  let seen = options.identity;
  let queue = Promise.resolve(true);
  const reload = (why: string) => {
    queue = queue.then(() => reloadOnce(options, why));
    return queue;
  };
  const onChange = async () => {
    const now = await fileIdentity(options.path);
    if (now === undefined || now === seen) return;
    seen = now;
    await reload(`${basename(options.path)} replaced`);
  };
  const onHup = () => void reload("SIGHUP");
  const watcher = watchDirectory(options.path, () => void onChange(), options.debounceMs ?? RELOAD_DEBOUNCE_MS, options.log);
  process.on("SIGHUP", onHup);
  return {
    reload,
    close() {
      watcher.close();
      process.off("SIGHUP", onHup);
    },
  };
}

/** Without a data file (the embedded data) SIGHUP has nothing to read: it is logged, not fatal. */
export function noReloadOnHangup(log: (line: string) => void): DataReloader {
  const onHup = () => log("charging: SIGHUP: serving the embedded data; set CHARGING_DATA to a file to reload it");
  process.on("SIGHUP", onHup);
  return { reload: () => Promise.resolve(false), close: () => void process.off("SIGHUP", onHup) };
}
