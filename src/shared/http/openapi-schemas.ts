/**
 * The JSON Schemas an OpenAPI document is made of: a valibot schema rendered as JSON Schema,
 * the error envelope, the JSON-RPC messages of POST /mcp, and `$defs` moved under
 * `components.schemas` so that references resolve inside a document.
 * @module
 */
import { toJsonSchema, type v } from "../../../deps.ts";
import { ERROR_CODES } from "../errors.ts";

export type JsonSchema = Record<string, unknown>;

/** A reference to the error envelope of a document's components. */
export const ERROR_REF = { $ref: "#/components/schemas/ErrorEnvelope" };

/** A reference to the JSON-RPC error of a document's components (what POST /mcp fails with). */
export const JSON_RPC_ERROR_REF = { $ref: "#/components/schemas/JsonRpcError" };

/** The `{"error":{"code","message"}}` envelope every error answers with; the codes are the registry's. */
export const ERROR_ENVELOPE_SCHEMA: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string", enum: [...ERROR_CODES] }, message: { type: "string" } },
    },
  },
};

/**
 * A JSON-RPC error not tied to a request (id null): how POST /mcp refuses a batch (-32600),
 * a body that is no JSON (-32700), and a guard's or the body cap's failure (`CODE: message`).
 */
export const JSON_RPC_ERROR_SCHEMA: JsonSchema = {
  type: "object",
  required: ["jsonrpc", "error", "id"],
  properties: {
    jsonrpc: { const: "2.0" },
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "integer" }, message: { type: "string" } },
    },
    id: { type: "null" },
  },
};

/** One JSON-RPC 2.0 request or notification (a batch, an array, is refused). */
export const JSON_RPC_REQUEST: JsonSchema = {
  type: "object",
  required: ["jsonrpc", "method"],
  properties: { jsonrpc: { const: "2.0" }, method: { type: "string" }, id: {}, params: { type: "object" } },
};

/**
 * A schema's JSON Schema, without the `$schema` line (it is embedded in documents): `input`
 * as a client writes it (the string before any transform), `output` as an answer carries it.
 */
export function jsonSchemaOf(schema: v.GenericSchema, typeMode: "input" | "output" = "input"): JsonSchema {
  const options = { target: "draft-2020-12", typeMode, errorMode: "ignore" } as const;
  const { $schema: _drop, ...rest } = toJsonSchema(schema, options) as JsonSchema;
  return rest;
}

function rewriteRefs(value: unknown, from: string, to: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, from, to));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === "$ref" && typeof item === "string" && item.startsWith(from)
        ? to + item.slice(from.length)
        : rewriteRefs(item, from, to),
    ]),
  );
}

/**
 * A JSON Schema whose `$defs` are moved to `components.schemas`: inside an OpenAPI document
 * `#/$defs/x` would resolve against the document root, so references become
 * `#/components/schemas/x`. Pass the returned `defs` as `OpenApiInfo.schemas`.
 */
export function hoistDefs(schema: JsonSchema): { schema: JsonSchema; defs: Record<string, JsonSchema> } {
  const { $defs, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const move = (value: unknown) => rewriteRefs(value, "#/$defs/", "#/components/schemas/") as JsonSchema;
  return {
    schema: move(rest),
    defs: Object.fromEntries(Object.entries($defs ?? {}).map(([name, def]) => [name, move(def)])),
  };
}
