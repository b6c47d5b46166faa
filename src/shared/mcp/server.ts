/**
 * Builds an MCP server (official SDK, low-level `Server`) from a tool table. Inputs are
 * validated with valibot; bad input, tool failures and unexpected errors all come back as
 * `isError` results with a next step, so no call can take the server down. A lazy definition
 * answers `initialize` and `tools/list` from a listing and loads the tools on the first call,
 * so a server's start-up does not pay for the tools' code. Where `info.tasks` is set, a tool
 * that declares task support also runs as an MCP task (tasks.ts holds them across requests).
 * @module
 */
import type { CallToolResult, McpTask, McpTool } from "../../../deps.ts";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  McpErrorCode,
  McpServer,
  ReadResourceRequestSchema,
} from "../../../deps-mcp-server.ts";
import { ApiError, ERRORS, type ErrorCode, messageOf } from "../errors.ts";
import { invokeTool } from "./invoke.ts";
import { listingOf, type ServerInfo } from "./listing.ts";
import { capabilitiesOf, type ReadResource, RESOURCE_NOT_FOUND } from "./resource.ts";
import { createToolTasks, type ToolTasks } from "./tasks.ts";
import type { ToolContext, ToolDef } from "./tool.ts";

export type { ServerInfo } from "./listing.ts";

/** Tools, or how to load them on first use. */
export type ToolSource = readonly ToolDef[] | (() => Promise<readonly ToolDef[]>);

/** Makes a fresh `Server` per connection (or per stateless request). */
export interface McpServerFactory {
  /**
   * A server for one connection. `tools` replaces the defined tools for it: the same names
   * and schemas bound to that request's dependencies (per-request keys, say); the listing
   * stays the definition's.
   */
  createServer(tools?: ToolSource): McpServer;
  /** Whether its servers run task-augmented tool calls (ServerInfo.tasks). */
  tasks?: boolean;
}

/** A server factory over a tool table known up front: the listing is computed once. */
export interface McpDefinition extends McpServerFactory {
  info: ServerInfo;
  tools: readonly ToolDef[];
  listing: McpTool[];
}

/**
 * An `isError` tool result whose text tells the agent what to do next. It carries no
 * structured content: SDK clients validate any structured content against the output schema.
 */
function errorResult(code: ErrorCode, message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `${code}: ${message}` }] };
}

/**
 * MCP's conversion point for a failed tool call: an `ApiError` is `CODE: message`; anything
 * else is logged here and answered INTERNAL, so no detail of it reaches the agent.
 */
export function toolErrorResult(err: unknown, tool: string, log: (line: string) => void): CallToolResult {
  if (err instanceof ApiError) return errorResult(err.code, err.message);
  log(`tool ${tool} failed: ${messageOf(err)}`);
  return errorResult("INTERNAL", `${tool} failed unexpectedly; ${ERRORS.INTERNAL.hint}`);
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

/**
 * A task-augmented call: the task at once (its id, working, ttl, pollInterval), the tool running
 * in the background with progress as the task's status message. A tool without task support
 * answers -32601, as the protocol asks.
 */
function startTask(tasks: ToolTasks, tool: ToolDef, ttl: number | undefined, run: (context: ToolContext) => Promise<CallToolResult>) {
  if (tool.taskSupport !== "optional") {
    throw new McpError(McpErrorCode.MethodNotFound, `${tool.name} does not run as a task; call it without task`);
  }
  const task: McpTask = tasks.start(ttl, (signal, progress) =>
    run({
      signal,
      progress: (done, total, message) => progress(message ?? `${done}${total === undefined ? "" : ` of ${total}`}`),
      progressIsStatus: true,
    }),
  );
  const immediate = `${tool.name} runs as task ${task.taskId}; tasks/get reports its progress, tasks/result returns its answer`;
  return { task, _meta: { "io.modelcontextprotocol/model-immediate-response": immediate } };
}

/** resources/templates/list, resources/list (none listed: the templates say what can be read) and resources/read. */
function serveResources(server: McpServer, info: ServerInfo, log: (line: string) => void, read: ReadResource = async () => undefined): void {
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: info.resourceTemplates ?? [] }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const contents = await read(request.params.uri).catch((err: unknown) => {
      // A URI the server reads but whose parts are wrong (a cursor it never gave): the typed error's next step.
      if (err instanceof ApiError) throw new McpError(McpErrorCode.InvalidParams, `${err.code}: ${err.message}`);
      // Anything else is logged here, as a tool's failure is: no detail of it reaches the client.
      log(`resource ${request.params.uri.slice(0, 200)} failed: ${messageOf(err)}`);
      throw new McpError(McpErrorCode.InternalError, `reading the resource failed unexpectedly; ${ERRORS.INTERNAL.hint}`);
    });
    if (!contents) {
      const templates = (info.resourceTemplates ?? []).map((t) => t.uriTemplate).join(", ");
      throw new McpError(RESOURCE_NOT_FOUND, `No resource at ${request.params.uri.slice(0, 200)}; this server reads ${templates}`);
    }
    return { contents: [contents] };
  });
}

function serverFactory(
  info: ServerInfo,
  listing: () => Promise<McpTool[]> | McpTool[],
  defined: ToolSource,
  log: (line: string) => void,
  read?: ReadResource,
): McpServerFactory {
  // One store for every server this factory makes: a task outlives the request that started it.
  const tasks = info.tasks ? createToolTasks() : undefined;
  const createServer = (bound?: ToolSource): McpServer => {
    const server = newServer(info, tasks);
    if (info.resourceTemplates) serveResources(server, info, log, read);
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await listing() }));
    serveCalls(server, bound ?? defined, tasks, log);
    return server;
  };
  return { createServer, tasks: Boolean(tasks) };
}

/** A server with the definition's name, capabilities and instructions, holding its tasks where it runs them. */
function newServer(info: ServerInfo, tasks: ToolTasks | undefined): McpServer {
  return new McpServer(
    { name: info.name, version: info.version },
    {
      capabilities: capabilitiesOf(info),
      ...(tasks ? { taskStore: tasks.store } : {}),
      ...(info.instructions ? { instructions: info.instructions } : {}),
    },
  );
}

/** tools/call: the named tool runs now, or as a task when the call asks for one and the server runs tasks. */
function serveCalls(server: McpServer, source: ToolSource, tasks: ToolTasks | undefined, log: (line: string) => void): void {
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = await toolNamed(source, request.params.name);
    const args = request.params.arguments ?? {};
    const call = (context: ToolContext) => callTool(tool, args, context, log);
    if (tasks && request.params.task) return startTask(tasks, tool, request.params.task.ttl, call);
    return call({ signal: extra.signal, progress: progressOf(request.params._meta?.progressToken, extra) });
  });
}

/** The tool called `name`, loading the tools first if they are loaded on use. */
async function toolNamed(source: ToolSource, name: string): Promise<ToolDef> {
  const tools = typeof source === "function" ? await source() : source;
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    throw new McpError(McpErrorCode.InvalidParams, `Unknown tool "${name}"; call tools/list for the tools this server has`);
  }
  return tool;
}

/** One tool run: its text, resource links and structured content, or its failure as an `isError` result. */
async function callTool(tool: ToolDef, args: unknown, context: ToolContext, log: (line: string) => void): Promise<CallToolResult> {
  try {
    const out = await invokeTool(tool, args, context);
    const links = (out.links ?? []).map((link) => ({ type: "resource_link" as const, ...link }));
    return { content: [{ type: "text", text: out.text }, ...links], structuredContent: out.structured };
  } catch (err) {
    return toolErrorResult(err, tool.name, log);
  }
}

/**
 * Defines an MCP server over `tools`; transports call `createServer()` per connection.
 * `list` makes each tool's tools/list entry (default `listingOf`).
 */
export function defineMcp(
  info: ServerInfo,
  tools: readonly ToolDef[],
  log: (line: string) => void = () => {},
  list: (tool: ToolDef) => McpTool = listingOf,
  read?: ReadResource,
): McpDefinition {
  const listing = tools.map(list);
  return { info, tools, listing, ...serverFactory(info, () => listing, tools, log, read) };
}

/** Where a lazy definition gets its listing and its tools. */
export interface LazyTools {
  /** The tools/list answer (a build may embed it; otherwise it is computed from `load`). */
  listing(): Promise<McpTool[]>;
  load(): Promise<readonly ToolDef[]>;
  /** Reads the resources `info.resourceTemplates` describe. */
  read?: ReadResource;
}

/** An MCP server whose tools are loaded on the first call that needs them. */
export function defineLazyMcp(
  info: ServerInfo,
  tools: LazyTools,
  log: (line: string) => void = () => {},
): McpServerFactory {
  return serverFactory(info, tools.listing, tools.load, log, tools.read);
}
