/**
 * The SEO service's public entry for runtime adapters (the stdio command, the Node and
 * Workers gateways): the handler and what it is configured with, and the shared pieces an
 * adapter wires around it. It re-exports nothing that loads tool code (the audit command
 * loads its code on first use), so an adapter's start-up stays small; the repository's mod.ts
 * re-exports it with the rest of the library.
 * @module
 */
import type { CliIo } from "./cli/audit.ts";

export { exitCodeOf } from "../shared/cli/failure.ts";
export { ApiError, errorResponse, isApiError } from "../shared/errors.ts";
export type { FetchHandler, RequestContext } from "../shared/http/respond.ts";
export { createStdioBridge, type StdioBridge } from "../shared/mcp/stdio-bridge.ts";
export { createGuardedLookup } from "../shared/net/lookup.ts";
export { VERSION } from "../shared/build-info.ts";
export { loadConfig as loadSeoConfig, redact, type SeoConfig } from "./config.ts";
export type { AuditReport } from "./audit/report.ts";
export { newReportId, REPORT_ID, type ReportStore } from "./audit/report-store.ts";
export type { HttpRequest, HttpResponse } from "./fetch/fetch-page.ts";
export { createSeoHandler, preloadSeoCode, type SeoHandlerOptions } from "./handler.ts";
export { BYOK_HEADERS } from "./http/byok.ts";
export type { GatewayEgress } from "./http/egress.ts";
export { type GatewaySettings, parseGatewayEnv } from "./http/gateway-env.ts";
export { SERVER_NAME as SEO_SERVER_NAME } from "./mcp-info.ts";
export type { RankStore, TrancoRank } from "./providers/tranco.ts";
export type { ProviderDeps } from "./providers/types.ts";
export { sleep } from "../shared/sleep.ts";
export type { CrawlCapability, SeoToolDeps } from "./tools/mod.ts";
export type { CliIo as AuditCommandIo } from "./cli/audit.ts";

/**
 * The `seo-audit-mcp audit` command line (exit code out). Its code, the crawler and the checks,
 * loads on the first call, so the other commands start without it.
 */
export async function auditCommand(args: string[], io: CliIo): Promise<number> {
  const cli = await import("./cli/audit.ts");
  return cli.auditCommand(args, io);
}
