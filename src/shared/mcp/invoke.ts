/**
 * Runs a tool on untrusted arguments: MCP calls and REST routes share this, so both validate
 * the same way and fail with the same typed errors.
 * @module
 */
import { ApiError } from "../errors.ts";
import { parseArguments } from "../validate.ts";
import type { ToolContext, ToolDef, ToolOutput } from "./tool.ts";

/**
 * Validates `args` against the tool's schema and runs it. Throws ApiError for an unavailable
 * tool or bad arguments (INVALID_ARGUMENTS, naming each field) and for the tool's own typed
 * failures; anything else it throws is unexpected.
 */
export async function invokeTool(tool: ToolDef, args: unknown, context: ToolContext): Promise<ToolOutput> {
  if (tool.unavailable) throw new ApiError(tool.unavailable.code, tool.unavailable.message);
  const input = parseArguments(tool.input, args, `. Fix the arguments to match the input schema of ${tool.name} and call again`);
  return tool.run(input, context);
}
