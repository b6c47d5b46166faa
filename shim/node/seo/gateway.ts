/**
 * `seo-audit-mcp gateway [--port N] [--host H] [--allow-audit]`: the SEO handler on Node's
 * HTTP server, hardened like the Workers gateway (GATEWAY_* variables) and behind the egress
 * guard, with DNS answers checked before the request and again when each socket connects.
 * The local crawl is off unless --allow-audit is given on a loopback bind.
 * @module
 */
import { ApiError, createGuardedLookup, type GatewayEgress, optionTable, parseArgs, parseGatewayEnv, valueOf } from "../../../src/seo/mod.ts";
import { pinnedFetch, resolveAll } from "../pinned-fetch.ts";
import { closeOnSignals, serve } from "../serve.ts";
import { nodeSeoHandler } from "./handler.ts";

export const GATEWAY_USAGE = `gateway [--port N] [--host H] [--allow-audit]
  --port N        TCP port (default 8788; 0 = any free port)
  --host H        interface to bind (default 127.0.0.1)
  --allow-audit   let seo_audit_site crawl (only with a loopback --host)
  Environment: GATEWAY_AUTH_TOKEN, GATEWAY_ALLOWED_ORIGINS, GATEWAY_RATE_LIMIT, GATEWAY_TRUST_PROXY`;

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

const GATEWAY_OPTIONS = optionTable(["port", "host"], ["allow-audit"]);

/** Reads the gateway's flags (port, host, allowAudit); throws INVALID_USAGE naming the flag at fault. */
export function parseGatewayArgs(args: string[]) {
  const parsed = parseArgs(args, GATEWAY_OPTIONS);
  if (parsed.positionals.length > 0)
    throw new ApiError("INVALID_USAGE", `gateway takes no arguments (got "${parsed.positionals[0]}")`);
  const port = valueOf(parsed, "port") ?? "8788";
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    throw new ApiError("INVALID_USAGE", `--port must be a number from 0 to 65535 (got "${port.slice(0, 20)}"); 0 picks any free port`);
  }
  const host = valueOf(parsed, "host") ?? "127.0.0.1";
  const allowAudit = parsed.options["allow-audit"] === true;
  if (allowAudit && !LOOPBACK.has(host.replace(/^\[|\]$/g, ""))) {
    throw new ApiError(
      "INVALID_USAGE",
      `--allow-audit needs a loopback --host (got "${host}"): a crawl must not be reachable from other machines; use --host 127.0.0.1, ::1 or localhost`,
    );
  }
  return { port: Number(port), host, allowAudit };
}

/** Node's egress guard: node:dns for the check, and sockets that re-check at connect time. */
export function nodeGatewayEgress(): GatewayEgress {
  return {
    resolve: resolveAll,
    connect: pinnedFetch(createGuardedLookup({ allowHosts: "any", resolve: resolveAll })),
  };
}

/** Starts the gateway; it runs until SIGINT/SIGTERM. */
export async function serveGateway(args: string[]): Promise<void> {
  const { port, host, allowAudit } = parseGatewayArgs(args);
  const settings = parseGatewayEnv(process.env);
  const { handler, log } = nodeSeoHandler({ crawl: allowAudit, egress: nodeGatewayEgress(), ...settings });
  const serving = await serve(handler, { port, hostname: host, portSetting: "--port" });
  closeOnSignals(serving, log);
  const auth = settings.authToken ? "bearer token required" : "no token (set GATEWAY_AUTH_TOKEN)";
  log(`gateway listening on ${serving.url} (${auth}; site audit ${allowAudit ? "on" : "off"})`);
  if (!settings.authToken && !LOOPBACK.has(host.replace(/^\[|\]$/g, ""))) {
    log("warning: reachable from other machines without GATEWAY_AUTH_TOKEN: anyone who reaches it spends your keys");
  }
}
