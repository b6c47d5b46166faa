/**
 * The SEO service's public entry for runtime adapters (the stdio command, the Node and
 * Workers gateways): the handler and what it is configured with, and the shared pieces an
 * adapter wires around it, and the command lines' entry (`commands.ts`). It re-exports nothing
 * that loads tool code, so an adapter's start-up stays small; the repository's mod.ts
 * re-exports it with the rest of the library.
 * @module
 */
export * from "./commands.ts";
export { ApiError, errorResponse, isApiError } from "../shared/errors.ts";
export type { FetchHandler, RequestContext } from "../shared/http/respond.ts";
export { createStdioBridge, type StdioBridge } from "../shared/mcp/stdio-bridge.ts";
export { createGuardedLookup } from "../shared/net/lookup.ts";
export { loadConfig as loadSeoConfig, redact, type SeoConfig } from "./config.ts";
export type { HttpRequest, HttpResponse, ResponseHeaders } from "./fetch/http-request.ts";
export { createSeoHandler, preloadSeoCode, type SeoHandlerOptions } from "./handler.ts";
export { BYOK_HEADERS } from "./http/byok.ts";
export type { GatewayEgress } from "./http/egress.ts";
export { type GatewaySettings, parseGatewayEnv } from "./http/gateway-env.ts";
export type { RankStore, TrancoRank } from "./providers/tranco.ts";
export type { ProviderDeps } from "./providers/types.ts";
export { sleep } from "../shared/sleep.ts";
export type { SeoToolDeps } from "./tools/mod.ts";
export type { CrawlCapability } from "./audit/audit-request.ts";
export type { FactsSink, FactsSinks, PageParser, PageParsing } from "./audit/extract.ts";
export type { HtmlFacts } from "./audit/html-facts.ts";
export type { LabMetrics, RenderedPage, Renderer, RendererFactory, RenderOptions, SubRequestGate, Throttling } from "./render/renderer.ts";
