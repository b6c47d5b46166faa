/**
 * The charging MCP tools, one per row of the operation table: the row's input and output
 * schemas, its handler, its answer as structured content and text. Every failure names the
 * next step for the agent.
 * @module
 */
import { ApiError, isApiError } from "../../shared/errors.ts";
import { jsonSchemaOf } from "../../shared/http/openapi.ts";
import type { ReadResource, ResourceTemplate } from "../../shared/mcp/resource.ts";
import { defineTool, type ToolDef } from "../../shared/mcp/tool.ts";
import { ID_HELP } from "../operations/input-rules.ts";
import { type Operation, OPERATIONS, READ_ONLY } from "../operations/table.ts";
import type { ChargingServices } from "../services.ts";

/** A NOT_FOUND about an id as an agent should read it: what ids look like and where to get one. */
function withAdvice(err: unknown): unknown {
  if (!isApiError(err, "NOT_FOUND")) return err;
  return new ApiError(
    "NOT_FOUND",
    `${err.message} (${ID_HELP}); call search_sites or find_nearby_sites first and use an id from its results`,
  );
}

function toolOf(operation: Operation, services: ChargingServices): ToolDef {
  const { name, title, description, input } = operation;
  return defineTool({
    name,
    title,
    description,
    input,
    output: jsonSchemaOf(operation.output, "output"),
    annotations: READ_ONLY,
    async run(args, { signal }) {
      try {
        const structured = operation.answer(await operation.run(services, args, signal));
        return { structured, text: JSON.stringify(structured) };
      } catch (err) {
        throw withAdvice(operation.forAgents ? operation.forAgents(err) : err);
      }
    },
  });
}

/** The tools over `services`, one per operation that is a tool. */
export function chargingTools(services: ChargingServices): ToolDef[] {
  return OPERATIONS.filter((operation) => operation.tool !== false).map((operation) => toolOf(operation, services));
}

/** The operations read as resources (reference data, the data set): their templates and reader. */
export function chargingResources(services: ChargingServices): { templates: ResourceTemplate[]; read: ReadResource } {
  const readable = OPERATIONS.filter((operation) => operation.resource !== undefined);
  const templates = readable.map(({ resource, name, title, description }) => ({
    uriTemplate: resource as string,
    name,
    title,
    description,
    mimeType: "application/json",
  }));
  const read: ReadResource = async (uri) => {
    const operation = readable.find((op) => op.resource === uri);
    if (!operation) return undefined;
    const answer = operation.answer(await operation.run(services, {}, AbortSignal.timeout(10_000)));
    return { uri, mimeType: "application/json", text: JSON.stringify(answer) };
  };
  return { templates, read };
}
