/**
 * Gateway test wiring: the fake providers on loopback (the deployer's trusted endpoints), the
 * one-page site reachable as the public-looking https://shop.example (through an injected
 * resolver and connector, the way the Node adapter injects DNS and a guarded socket), a site
 * that redirects to private addresses, and SDK clients over Streamable HTTP, either on a real
 * socket or in-process through the handler itself.
 * @module
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createSeoHandler, type SeoHandlerOptions } from "../../../src/seo/handler.ts";
import type { FetchHandler } from "../../../src/shared/http/respond.ts";
import { type CallResult, callTool } from "../fakes/client.ts";
import { type FakeOptions, type Fakes, startFakes } from "../fakes/providers.ts";
import { configFor, recordingDeps } from "../fakes/setup.ts";
import { type Site, startSite } from "../fakes/site.ts";

/** A site on loopback whose pages redirect to the addresses the guard must refuse. */
export interface Trap {
  url: string;
  /** Every request that reached it (a refused hop must add none). */
  requests: string[];
  close(): Promise<void>;
}

export async function startTrap(): Promise<Trap> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const target = new URL(req.url ?? "/", "http://x").searchParams.get("to");
    if (target) {
      res.writeHead(302, { location: target });
      return res.end();
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><head><title>trap</title></head><body>reached</body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Public-looking names and what they resolve to: shop.example is the fake site. */
export const DNS: Record<string, string[]> = {
  "shop.example": ["93.184.216.34"],
  "redirector.example": ["93.184.216.35"],
  "rebound.example": ["10.0.0.7"],
  "mixed.example": ["93.184.216.36", "169.254.169.254"],
};

export interface World {
  fakes: Fakes;
  site: Site;
  trap: Trap;
  /** Reaches shop.example (the site) and redirector.example (the trap) on loopback. */
  connect: typeof fetch;
  resolve(host: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startWorld(fakeOptions: FakeOptions = {}): Promise<World> {
  const [fakes, site, trap] = await Promise.all([startFakes(fakeOptions), startSite(), startTrap()]);
  const connect: typeof fetch = (input, init) => {
    const url = new URL(String(input));
    if (url.hostname === "redirector.example") return fetch(`${trap.url}${url.pathname}${url.search}`, init);
    return site.fetch(url.href, init);
  };
  return {
    fakes,
    site,
    trap,
    connect,
    resolve: async (host) => {
      const found = DNS[host];
      if (!found) throw new Error(`ENOTFOUND ${host}`);
      return found;
    },
    close: async () => {
      await Promise.all([fakes.close(), site.close(), trap.close()]);
    },
  };
}

/** The gateway over `world`: fake providers trusted, shop.example public, everything else guarded. */
export function gatewayHandler(
  world: World,
  overrides: Partial<SeoHandlerOptions> = {},
  logs: string[] = [],
): FetchHandler {
  return createSeoHandler({
    provider: recordingDeps(),
    config: configFor(world.fakes, false),
    egress: { resolve: world.resolve, connect: world.connect },
    ratePerMinute: 1000,
    log: (line) => logs.push(line),
    ...overrides,
  });
}

/** A fetch that calls `handler` in-process (no socket), as a client from 203.0.113.9. */
export function inProcess(handler: FetchHandler, clientAddress = "203.0.113.9"): typeof fetch {
  return async (input, init) => handler(new Request(input, init), { clientAddress });
}

export interface McpSession {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

/** An SDK client on `url`/mcp, through `fetchImpl` (default: the real network), with `headers`. */
export async function mcpClient(
  url: string,
  headers: Record<string, string> = {},
  fetchImpl?: typeof fetch,
): Promise<McpSession> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  const client = new Client({ name: "gateway-test", version: "1" });
  await client.connect(transport);
  return { client, call: (name, args) => callTool(client, name, args), close: () => client.close() };
}

/** The refusals every runtime must give for page-report URLs, before any connection. */
export function refusedUrls(trapUrl: string): string[] {
  const port = new URL(trapUrl).port;
  return [
    `http://127.0.0.1:${port}/`,
    `http://2130706433:${port}/`,
    `http://0x7f.1:${port}/`,
    `http://0177.0.0.1:${port}/`,
    `http://127.1:${port}/`,
    `http://[::1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::127.0.0.1]:${port}/`,
    `http://0.0.0.0:${port}/`,
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00:ec2::254]/",
    "http://10.1.2.3/",
    "http://192.168.1.1/",
    "http://100.100.100.200/",
    `http://localhost:${port}/`,
    `http://app.localhost:${port}/`,
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://printer.local/",
    "http://intranet/",
  ];
}
