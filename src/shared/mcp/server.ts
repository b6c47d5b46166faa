/**
 * Builds an MCP server (official SDK, low-level `Server`) from a tool table. Inputs are
 * validated with valibot; bad input, tool failures and unexpected errors all come back as
 * `isError` results with a next step, so no call can take the server down.
 * @module
 */
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  McpError,
  McpErrorCode,
  McpServer,
  type McpTool,
  toJsonSchema,
  v,
} from "../../../deps.ts";
import { type ToolContext, type ToolDef, ToolError, type ToolOutput } from "./tool.ts";

export interface ServerInfo {
  name: string;
  version: string;
  instructions?: string;
}

/** A server factory: the tool listing is computed once, a fresh `Server` per connection. */
export interface McpDefinition {
  tools: readonly ToolDef[];
  listing: McpTool[];
  /**
   * A server for one connection (or one stateless request). `tools` replaces the defined
   * tools for it: the same names and schemas bound to that request's dependencies (per-request
   * keys, say); the listing stays the one computed from the definition.
   */
  createServer(tools?: readonly ToolDef[]): McpServer;
}

function listingOf(tool: ToolDef): McpTool {
  const { $schema: _drop, ...inputSchema } = toJsonSchema(tool.input) as Record<string, unknown>;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchema as McpTool["inputSchema"],
    ...(tool.output ? { outputSchema: tool.output as McpTool["outputSchema"] } : {}),
    ...(tool.annotations ? { annotations: { title: tool.title, ...tool.annotations } } : {}),
  };
}

/**
 * An `isError` tool result whose text tells the agent what to do next. It carries no
 * structured content: SDK clients validate any structured content against the output schema.
 */
export function errorResult(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `${code}: ${message}` }] };
}

function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/**
 * Validates `args` against the tool's schema and runs it. Throws ToolError for an unavailable
 * tool or bad arguments (INVALID_ARGUMENTS, naming each field) and for the tool's own typed
 * failures; anything else it throws is unexpected. MCP calls and REST routes share this.
 */
export async function invokeTool(tool: ToolDef, args: unknown, context: ToolContext): Promise<ToolOutput> {
  if (tool.unavailable) throw new ToolError(tool.unavailable.code, tool.unavailable.message);
  const parsed = v.safeParse(tool.input, args);
  if (!parsed.success) {
    throw new ToolError(
      "INVALID_ARGUMENTS",
      `${describeIssues(parsed.issues)}. Fix the arguments to match the input schema of ${tool.name} and call again`,
    );
  }
  return tool.run(parsed.output, context);
}

type CallExtra = Parameters<Parameters<McpServer["setRequestHandler"]>[1]>[1];

/** Progress notifications for a call that carries a progress token (a no-op otherwise). */
function progressOf(token: string | number | undefined, extra: CallExtra): ToolContext["progress"] {
  return (done, total, message) => {
    if (token === undefined) return;
    void extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: done, total, message },
      })
      .catch(() => {});
  };
}

/** Defines an MCP server over `tools`; transports call `createServer()` per connection. */
export function defineMcp(
  info: ServerInfo,
  tools: readonly ToolDef[],
  log: (line: string) => void = () => {},
): McpDefinition {
  const listing = tools.map(listingOf);
  const defined = new Map(tools.map((tool) => [tool.name, tool]));

  const call = async (tool: ToolDef, args: unknown, context: ToolContext): Promise<CallToolResult> => {
    try {
      const out = await invokeTool(tool, args, context);
      return { content: [{ type: "text", text: out.text }], structuredContent: out.structured };
    } catch (err) {
      if (err instanceof ToolError) return errorResult(err.code, err.message);
      log(`tool ${tool.name} failed: ${err instanceof Error ? err.message : String(err)}`);
      return errorResult("INTERNAL", `${tool.name} failed unexpectedly; retry once, and if it fails again report it`);
    }
  };

  const createServer = (bound?: readonly ToolDef[]): McpServer => {
    const byName = bound ? new Map(bound.map((tool) => [tool.name, tool])) : defined;
    const server = new McpServer(
      { name: info.name, version: info.version },
      { capabilities: { tools: {} }, ...(info.instructions ? { instructions: info.instructions } : {}) },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listing }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
      const tool = byName.get(request.params.name);
      if (!tool) {
        throw new McpError(
          McpErrorCode.InvalidParams,
          `Unknown tool "${request.params.name}"; call tools/list for the tools this server has`,
        );
      }
      const progress = progressOf(request.params._meta?.progressToken, extra);
      return call(tool, request.params.arguments ?? {}, { signal: extra.signal, progress });
    });
    return server;
  };

  return { tools, listing, createServer };
}
