/**
 * The checks MCP Inspector applies to a server's tools, run headless (its CLI has no strict or
 * portability mode: `--cli` runs one method and prints the answer; see the report of issue 22):
 * every tools/list entry parses with the specification's Tool schema (what the Inspector's list
 * salvage rejects an entry for), every tool name passes the SDK's SEP-986 name rules with no
 * warning (1-128 characters of A-Z a-z 0-9 _ - .), every input and output schema is an object
 * schema that Ajv compiles in strict mode, and a tool declaring an outputSchema answers
 * structuredContent that validates against it (the Inspector's strict-client check).
 */
import { ListToolsResultSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { validateToolName } from "@modelcontextprotocol/sdk/shared/toolNameValidation.js";
import { Ajv2020 } from "ajv/dist/2020.js";

/** Problems of a tools/list result, one line each (empty: portable). */
export function listingProblems(result: unknown): string[] {
  const parsed = ListToolsResultSchema.safeParse(result);
  if (!parsed.success) return [`tools/list does not parse with the specification's schema: ${parsed.error.message}`];
  return parsed.data.tools.flatMap(toolProblems);
}

function toolProblems(tool: Tool): string[] {
  const { isValid, warnings } = validateToolName(tool.name);
  const problems = [...(isValid ? [] : [`${tool.name}: invalid name`]), ...warnings.map((w) => `${tool.name}: ${w}`)];
  for (const [which, schema] of [["inputSchema", tool.inputSchema], ["outputSchema", tool.outputSchema]] as const) {
    if (schema === undefined) continue;
    if (schema.type !== "object") problems.push(`${tool.name}: ${which} is not an object schema`);
    try {
      new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    } catch (err) {
      problems.push(`${tool.name}: ${which} fails Ajv strict mode: ${(err as Error).message}`);
    }
  }
  return problems;
}

/** The Inspector's strict-client check of one tools/call result: a declared outputSchema means valid structuredContent. */
export function resultProblem(tool: Tool, result: Record<string, unknown>): string | undefined {
  if (!tool.outputSchema || result.isError === true) return undefined;
  if (result.structuredContent === undefined) return `${tool.name}: declares an outputSchema but answered no structuredContent`;
  const check = new Ajv2020({ strict: false, allErrors: true }).compile(tool.outputSchema);
  return check(result.structuredContent) ? undefined : `${tool.name}: ${new Ajv2020().errorsText(check.errors)}`;
}
