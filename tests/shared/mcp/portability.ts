/**
 * The checks MCP Inspector applies to a server's tools, run offline in the test suite:
 * - its `--cli --strict --method tools/list` schema-portability rules (Inspector 2.12.0; run it
 *   for real with `node scripts/inspector-strict.ts`): a bare boolean where a schema is
 *   expected (error), a `type` written as an array, a `$ref` outside the document, and a schema
 *   with no constraining keyword at all, `{}` (warnings);
 * - every tools/list entry parses with the specification's Tool schema (what its list salvage
 *   drops an entry for), and every tool name passes the SDK's SEP-986 rules without a warning;
 * - every input and output schema is an object schema that Ajv compiles in strict mode;
 * - a tool declaring an outputSchema answers structuredContent that validates against it.
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

/** Keywords that constrain an instance: a schema with none of them accepts anything. */
const CONSTRAINING = new Set(
  "type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern format maxItems minItems uniqueItems maxContains minContains maxProperties minProperties required dependentRequired allOf anyOf oneOf not if items prefixItems contains additionalItems unevaluatedItems properties patternProperties additionalProperties unevaluatedProperties propertyNames dependentSchemas dependencies $ref $dynamicRef contentSchema contentMediaType contentEncoding".split(" "),
);
const SCHEMA_VALUED = ["items", "contains", "not", "propertyNames", "if", "then", "else", "additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems", "contentSchema"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_MAPS = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];
/** Where `true` / `false` are ordinary values rather than schemas standing in for one. */
const BOOLEAN_OK = new Set(["additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"]);

type Node = Record<string, unknown>;

function childrenOf(node: Node, path: string): [unknown, string, string][] {
  const children: [unknown, string, string][] = [];
  for (const key of SCHEMA_MAPS) {
    for (const [name, child] of Object.entries((node[key] ?? {}) as Node)) children.push([child, `${path}.${key}.${name}`, key]);
  }
  for (const key of [...SCHEMA_LISTS, "items"]) {
    if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((child, i) => children.push([child, `${path}.${key}[${i}]`, key]));
  }
  for (const key of SCHEMA_VALUED) if (key in node && !Array.isArray(node[key])) children.push([node[key], `${path}.${key}`, key]);
  return children;
}

/** The Inspector's portability findings of one schema, `<severity> <path>: <rule>` each. */
export function schemaFindings(schema: unknown, path: string, keyword?: string): string[] {
  if (typeof schema === "boolean") return keyword !== undefined && BOOLEAN_OK.has(keyword) ? [] : [`error ${path}: boolean-schema`];
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return [];
  const node = schema as Node;
  const findings: string[] = [];
  if (Array.isArray(node.type)) findings.push(`warning ${path}: type-union ${JSON.stringify(node.type)}`);
  if (typeof node.$ref === "string" && !node.$ref.startsWith("#")) findings.push(`warning ${path}: remote-ref ${node.$ref}`);
  if (keyword !== "not" && !Object.keys(node).some((key) => CONSTRAINING.has(key))) findings.push(`warning ${path}: untyped-schema`);
  return [...findings, ...childrenOf(node, path).flatMap(([child, at, key]) => schemaFindings(child, at, key))];
}

function toolProblems(tool: Tool): string[] {
  const { isValid, warnings } = validateToolName(tool.name);
  const problems = [...(isValid ? [] : [`${tool.name}: invalid name`]), ...warnings.map((w) => `${tool.name}: ${w}`)];
  for (const [which, schema] of [["inputSchema", tool.inputSchema], ["outputSchema", tool.outputSchema]] as const) {
    if (schema === undefined) continue;
    if (schema.type !== "object") problems.push(`${tool.name}: ${which} is not an object schema`);
    problems.push(...schemaFindings(schema, which).map((finding) => `${tool.name}: ${finding}`));
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
