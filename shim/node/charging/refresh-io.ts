/**
 * Node I/O of `charging refresh`: downloads stream to a folder beside the output, the import's
 * I/O, data-set files opened with the server's own loader (every check), and the rename that
 * puts the new snapshot in place.
 * @module
 */
import { mkdtemp, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ApiError, isApiError, type RefreshIo } from "../../../src/charging/mod.ts";
import { loadStore } from "./app.ts";
import { download } from "./download.ts";
import { nodeImportIo } from "./import-io.ts";

/** The facts of a data-set file, or undefined when there is none; a file that does not open is INVALID_DATA. */
async function inspect(path: string) {
  const exists = await stat(path).then(() => true, () => false);
  if (!exists) return undefined;
  try {
    const store = await loadStore(path);
    return { counts: store.header.counts, importedAt: store.header.importedAt, version: store.version };
  } catch (err) {
    if (!isApiError(err)) throw err;
    throw new ApiError("INVALID_DATA", err.message.replace(/^CHARGING_DATA: /, ""), { cause: err });
  }
}

/** Where the refresh's lines go (default: the process's stderr and stdout). */
type Lines = Pick<RefreshIo, "stderr" | "stdout">;

export function nodeRefreshIo(env: Readonly<Record<string, string | undefined>>, lines?: Lines): RefreshIo {
  const io = { ...nodeImportIo(), ...lines };
  return {
    ...io,
    env,
    download: (url, to, options) => download(url, to, { ...options, log: io.stderr }),
    inspect,
    rename,
    remove: (path) => rm(path, { force: true }),
    async workDir(beside) {
      const path = await mkdtemp(join(dirname(beside), ".charging-refresh-"));
      return { path, remove: () => rm(path, { recursive: true, force: true }) };
    },
  };
}
