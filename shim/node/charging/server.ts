#!/usr/bin/env node
/**
 * Entry of `dist/charging.js`: the charging-site API server. Configuration comes from the
 * environment (see src/charging/API.md); exit code 2 on a bad configuration, 1 on other
 * start-up failures.
 * @module
 */
import { exitCodeOf, failureLine } from "../../../src/charging/mod.ts";
import { startChargingServer } from "./app.ts";

const log = (line: string) => process.stderr.write(`${line}\n`);

try {
  await startChargingServer(process.env, log);
} catch (err) {
  log(failureLine(err, "src/charging/API.md (configuration)"));
  process.exitCode = exitCodeOf(err);
}
