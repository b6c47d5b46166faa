#!/usr/bin/env node
/**
 * Entry of `dist/charging-cli.js` (bin `charging`): the pure CLI in src/charging/cli wired to
 * Node: stdio, the environment, the local dataset, the server, the importer and the refresh.
 * @module
 */
import { createChargingHandler, exitCodeOf, failureLine, parseChargingEnv, runCli, runImport, runRefresh } from "../../../src/charging/mod.ts";
import { loadStore, servicesFor, startChargingServer } from "./app.ts";
import { nodeImportIo } from "./import-io.ts";
import { nodeRefreshIo } from "./refresh-io.ts";
import { readFile } from "node:fs/promises";

const stderr = (text: string) => process.stderr.write(text);
const log = (line: string) => stderr(`${line}\n`);

try {
  process.exitCode = await runCli(process.argv.slice(2), {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr,
    fetch,
    async local() {
      const config = parseChargingEnv({ CHARGING_DATA: process.env.CHARGING_DATA });
      const services = servicesFor(await loadStore(config.dataPath), config);
      // One local user: the per-client rate limit has nothing to protect here.
      return createChargingHandler({ ...services, ratePerMinute: 1_000_000_000, log });
    },
    async serve(overrides) {
      await startChargingServer({ ...process.env, ...overrides }, log);
      return 0;
    },
    runImport: (args) => runImport([...args], nodeImportIo()),
    runRefresh: (args) => runRefresh(args, nodeRefreshIo(process.env)),
    readText: (path) => readFile(path, "utf8"),
  });
} catch (err) {
  // Only what runCli does not report itself reaches here: a failure nobody planned for.
  log(failureLine(err, "charging --help"));
  process.exitCode = exitCodeOf(err);
}
