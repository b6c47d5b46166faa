/**
 * Entry of the audit thread (dist/seo-audit-thread.js): `seo-audit-mcp audit` crawls here while
 * the main thread parses its pages (`audit.ts` says why). In: `workerData` (the
 * arguments, whether stderr is a terminal, and the port pages are parsed over) and "abort" on
 * Ctrl-C. Out: `["stdout" | "stderr", text]` in order, then `["exit", code]`.
 * @module
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { exitCodeOf, failureLine } from "../../../src/seo/commands.ts";
import { runAudit } from "./audit-run.ts";
import { portEndpoint, RemoteParsing } from "./page-parser.ts";

export interface AuditThreadData {
  args: string[];
  isTTY: boolean;
  pages: MessagePort;
}

export type AuditThreadMessage = ["stdout" | "stderr", string] | ["exit", number];

const send = (message: AuditThreadMessage) => parentPort?.postMessage(message);

function audit({ args, isTTY, pages }: AuditThreadData, signal: AbortSignal): Promise<number> {
  return runAudit(args, {
    stdout: (text) => send(["stdout", text]),
    stderr: (text) => send(["stderr", text]),
    isTTY,
    signal,
    pageParser: () =>
      new RemoteParsing(portEndpoint(pages), (reason) =>
        send(["stderr", `audit: pages are parsed on the audit's thread (${reason})\n`]),
      ),
  });
}

async function main(data: AuditThreadData): Promise<void> {
  const controller = new AbortController();
  parentPort?.on("message", (message) => {
    if (message === "abort") controller.abort(new Error("interrupted"));
  });
  // Listening must not keep this thread alive once the audit is done.
  parentPort?.unref();
  try {
    send(["exit", await audit(data, controller.signal)]);
  } catch (err) {
    // As the command line reports a failure when it runs on the main thread.
    send(["stderr", `${failureLine(err, "seo-audit-mcp audit --help")}\n`]);
    send(["exit", exitCodeOf(err)]);
  }
}

await main(workerData as AuditThreadData);
