/**
 * An SDK client connected in-process to the SEO server (the SDK's in-memory transport), so tool
 * tests run through real MCP validation, including the output schemas.
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { memoryReportStore } from "../../../src/seo/audit/report-store.ts";
import type { SeoConfig } from "../../../src/seo/config.ts";
import { createSeoMcp } from "../../../src/seo/server.ts";
import type { SeoToolDeps } from "../../../src/seo/tools/mod.ts";
import { recordingDeps } from "./setup.ts";

export interface Connected {
  client: Client;
  logs: string[];
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallResult {
  isError?: boolean;
  text: string;
  structured: Record<string, unknown> & { [k: string]: unknown };
}

/** Calls a tool and flattens its result for assertions. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallResult> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  return {
    ...(result.isError ? { isError: true } : {}),
    text: content.map((c) => c.text).join("\n"),
    structured: (result.structuredContent ?? {}) as CallResult["structured"],
  };
}

export async function connect(config: SeoConfig, extra: Partial<SeoToolDeps> = {}): Promise<Connected> {
  const logs: string[] = [];
  const definition = createSeoMcp({
    provider: recordingDeps(),
    config,
    crawl: { fetch: globalThis.fetch, reports: memoryReportStore() },
    log: (l) => logs.push(l),
    ...extra,
  });
  const server = definition.createServer();
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "seo-test", version: "1" });
  await client.connect(clientSide);
  return {
    client,
    logs,
    call: (name, args) => callTool(client, name, args),
    async close() {
      await client.close();
      await server.close();
    },
  };
}
