/**
 * `seo-audit-mcp audit` on two threads. The crawl runs on a worker thread of its own and the main
 * thread parses its pages (over a `MessageChannel`, `page-answers.ts`): parsing is about 40 % of a
 * local crawl's CPU, so the crawl gets a second core. The crawl's thread is the one that keeps
 * what the audit remembers, and on its own thread its heap gets limits made for a bounded batch
 * job (`AUDIT_THREAD_LIMITS`) instead of V8's defaults for a long-lived server, which let it grow
 * to several times its live data; the parsing thread keeps nothing between pages and stays small.
 * Without a second core, or without the thread's file, the audit runs on the main thread (with
 * the page worker when it can), and says why.
 * @module
 */
import { availableParallelism } from "node:os";
import { MessageChannel, Worker } from "node:worker_threads";
import { failureLine } from "../../../src/seo/commands.ts";
import { answerPagesOn } from "./page-answers.ts";
import { besideTheBin, withPageParser } from "./page-parser.ts";
import type { AuditThreadData, AuditThreadMessage } from "./audit-thread.ts";

/**
 * The audit thread's heap. Young generation: 6 MiB (V8 gives a third of it to each semi-space)
 * instead of growing to 32 MiB. Old generation: at most 1 GiB, several times what a
 * 100,000-page audit (the CLI's cap) keeps, and a limit under 2 GiB is also what makes V8 grow
 * the heap by less than 4x its live data after each full collection. Measured by
 * scripts/bench-seo-crawl.ts (AUDIT.md, "Speed and memory").
 */
const AUDIT_THREAD_LIMITS = { maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 1024 };

/** What a crash of the audit thread means for the user, as the one failure line. */
function threadFailure(err: Error & { code?: string }): string {
  if (err.code === "ERR_WORKER_OUT_OF_MEMORY")
    return `INTERNAL: the audit ran out of memory (its heap is limited to ${AUDIT_THREAD_LIMITS.maxOldGenerationSizeMb} MiB); lower --max-pages and run it again\n`;
  return `${failureLine(err, "seo-audit-mcp audit --help")}\n`;
}

function onThread(file: URL, args: string[]): Promise<number> {
  const { port1, port2 } = new MessageChannel();
  answerPagesOn(port1);
  const data: AuditThreadData = { args, isTTY: process.stderr.isTTY === true, pages: port2 };
  const worker = new Worker(file, { workerData: data, transferList: [port2], resourceLimits: AUDIT_THREAD_LIMITS });
  const interrupt = () => worker.postMessage("abort");
  process.once("SIGINT", interrupt);
  let code = 1;
  worker.on("message", (message: AuditThreadMessage) => {
    if (message[0] === "exit") code = message[1];
    else (message[0] === "stdout" ? process.stdout : process.stderr).write(message[1]);
  });
  worker.on("error", (err) => process.stderr.write(threadFailure(err)));
  return new Promise((resolve) =>
    worker.once("exit", () => {
      process.off("SIGINT", interrupt);
      port1.close();
      resolve(code);
    }),
  );
}

async function here(args: string[]): Promise<number> {
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort(new Error("interrupted")));
  const { runAudit } = await import("./audit-run.ts");
  return runAudit(args, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTTY: process.stderr.isTTY === true,
    signal: controller.signal,
    ...withPageParser((reason) => process.stderr.write(`audit: pages are parsed on the main thread (${reason})\n`)),
  });
}

/** Runs `audit` with these arguments on its own thread when it can, else here; its exit code. */
export function audit(args: string[]): Promise<number> {
  if (availableParallelism() < 2) return here(args);
  const file = besideTheBin("audit-thread");
  if (file) return onThread(file, args);
  process.stderr.write("audit: the crawl runs on the main thread (the audit thread's file is missing)\n");
  return here(args);
}
