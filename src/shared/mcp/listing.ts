/**
 * What a server says about itself and its tools before any of them runs: its identity for
 * `initialize` and each tool's `tools/list` entry (JSON Schema of the valibot input).
 * @module
 */
import { type McpTool, toJsonSchema } from "../../../deps.ts";
import type { ResourceTemplate } from "./resource.ts";
import type { ToolDef } from "./tool.ts";

export interface ServerInfo {
  name: string;
  version: string;
  instructions?: string;
  /** Set when the server has resources: the templates their URIs follow. */
  resourceTemplates?: ResourceTemplate[];
  /** Set when tools that declare task support run as MCP tasks here. */
  tasks?: boolean;
}

/** The tools/list entry of a tool. */
export function listingOf(tool: ToolDef): McpTool {
  // Rules JSON Schema cannot say (a check across fields, a length in characters) are left to
  // the tool's own validation, which names them when they fail.
  const { $schema: _drop, ...inputSchema } = toJsonSchema(tool.input, { errorMode: "ignore" }) as Record<string, unknown>;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchema as McpTool["inputSchema"],
    ...(tool.output ? { outputSchema: tool.output as McpTool["outputSchema"] } : {}),
    ...(tool.annotations ? { annotations: { title: tool.title, ...tool.annotations } } : {}),
    ...(tool.taskSupport ? { execution: { taskSupport: tool.taskSupport } } : {}),
  };
}
