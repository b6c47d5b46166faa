/**
 * The SEO service's public entry for its command lines: the `audit` command (its code, the
 * crawler and the checks, loads on the first call), exit codes, the names, and the report ids
 * the Node report store files reports under. It imports nothing of the HTTP handler, so
 * `seo-audit-mcp audit` starts without the gateway, the MCP plumbing or their dependencies;
 * `mod.ts` re-exports it with the rest of the service.
 * @module
 */
import type { CliIo } from "./cli/audit.ts";

export { exitCodeOf, failureLine } from "../shared/cli/failure.ts";
export { metaFlagOf, optionTable, parseArgs, valueOf } from "../shared/cli/args.ts";
export { ApiError } from "../shared/errors.ts";
export { VERSION } from "../shared/build-info.ts";
export type { AuditReport } from "./audit/report.ts";
export { newReportId, REPORT_ID, type ReportStore } from "./audit/report-store.ts";
export { SERVER_NAME as SEO_SERVER_NAME } from "./mcp-info.ts";
export type { CliIo as AuditCommandIo } from "./cli/audit.ts";
export type { PageParser } from "./audit/extract.ts";
export { IN_MEMORY_PAGES, type CrawlState, type CrawlStates, type PageFactsStore } from "./audit/page-facts.ts";
export type { PageRecord } from "./crawl/crawl-journal.ts";
export type { PageSummary } from "./audit/page-summary.ts";

/** The `seo-audit-mcp audit` command line (exit code out). */
export async function auditCommand(args: string[], io: CliIo): Promise<number> {
  const cli = await import("./cli/audit.ts");
  return cli.auditCommand(args, io);
}
