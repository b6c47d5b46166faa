/**
 * OpenAPI 3.1 documents generated from the valibot schemas that validate requests, so the
 * document cannot drift from what the handler accepts. Query and path parameters are the
 * entries of a valibot object schema; each is rendered as its input type (the string a
 * client sends, with its pattern, length and description), stopping at the first transform.
 * @module
 */
import { toJsonSchema, v } from "../../../deps.ts";
import { ERROR_CODES } from "../errors.ts";

type JsonSchema = Record<string, unknown>;

/* eslint-disable @typescript-eslint/no-explicit-any -- parameter objects of any entries */
type ParamsSchema = v.ObjectSchema<any, any> | v.StrictObjectSchema<any, any> | v.LooseObjectSchema<any, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

export interface OpenApiResponse {
  description: string;
  /** JSON Schema of the body (omitted for bodiless answers such as 304). */
  schema?: JsonSchema;
  /** Default `application/json`. */
  contentType?: string;
  /** Several media types for one status (content negotiation): media type -> JSON Schema; replaces `schema`. */
  content?: Record<string, JsonSchema>;
  /** Response headers by name, each with a description. */
  headers?: Record<string, string>;
}

export interface OpenApiOperation {
  method: "get" | "post" | "put" | "delete" | "patch" | "head" | "options";
  /** OpenAPI path template, e.g. `/api/v1/sites/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags?: readonly string[];
  query?: ParamsSchema;
  pathParams?: ParamsSchema;
  /** Extra header parameters (for example BYOK key headers), by name. */
  headers?: Record<string, { description: string; required?: boolean }>;
  requestBody?: { description: string; schema: JsonSchema; contentType?: string };
  /** Keyed by status code (`"200"`) or `"default"`. */
  responses: Record<string, OpenApiResponse>;
  /** False for routes the security scheme does not cover (liveness). Default true. */
  secured?: boolean;
}

export type OpenApiSecurity =
  | { kind: "bearer"; description: string }
  | { kind: "apiKey"; header: string; description: string; bearerAlso?: boolean };

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  servers?: readonly { url: string; description?: string }[];
  /** The scheme when a gate is configured; omitted when the API is open. */
  security?: OpenApiSecurity;
  /** Named schemas for `components.schemas` (for `#/components/schemas/<name>` references). */
  schemas?: Record<string, JsonSchema>;
}

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

const SCHEMA_OPTIONS = { target: "draft-2020-12", typeMode: "input", errorMode: "ignore" } as const;

/** One entry's JSON Schema as a client writes it (the string before any transform). */
export function inputSchemaOf(schema: v.GenericSchema): JsonSchema {
  const { $schema: _drop, ...rest } = toJsonSchema(schema, SCHEMA_OPTIONS) as JsonSchema;
  return rest;
}

function parametersOf(where: "query" | "path", params: ParamsSchema | undefined): JsonSchema[] {
  if (!params) return [];
  return Object.entries(params.entries as Record<string, v.GenericSchema>).map(([name, entry]) => {
    const schema = inputSchemaOf(entry);
    const { description, ...rest } = schema;
    const required = where === "path" || (entry.type !== "optional" && entry.type !== "exact_optional");
    return {
      name,
      in: where,
      required,
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
    };
  });
}

function headerParametersOf(headers: OpenApiOperation["headers"]): JsonSchema[] {
  return Object.entries(headers ?? {}).map(([name, spec]) => ({
    name,
    in: "header",
    required: spec.required ?? false,
    description: spec.description,
    schema: { type: "string" },
  }));
}

function responseOf(response: OpenApiResponse): JsonSchema {
  const headers = Object.entries(response.headers ?? {});
  return {
    description: response.description,
    ...(headers.length > 0
      ? {
          headers: Object.fromEntries(
            headers.map(([name, description]) => [name, { description, schema: { type: "string" } }]),
          ),
        }
      : {}),
    ...(response.content
      ? { content: Object.fromEntries(Object.entries(response.content).map(([type, schema]) => [type, { schema }])) }
      : response.schema
        ? { content: { [response.contentType ?? "application/json"]: { schema: response.schema } } }
        : {}),
  };
}

function operationOf(op: OpenApiOperation, security: OpenApiSecurity | undefined): JsonSchema {
  const parameters = [
    ...parametersOf("path", op.pathParams),
    ...parametersOf("query", op.query),
    ...headerParametersOf(op.headers),
  ];
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.tags ? { tags: [...op.tags] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.requestBody
      ? {
          requestBody: {
            required: true,
            description: op.requestBody.description,
            content: { [op.requestBody.contentType ?? "application/json"]: { schema: op.requestBody.schema } },
          },
        }
      : {}),
    responses: Object.fromEntries(Object.entries(op.responses).map(([code, r]) => [code, responseOf(r)])),
    ...(security && op.secured === false ? { security: [] } : {}),
  };
}

function securitySchemes(security: OpenApiSecurity): JsonSchema {
  if (security.kind === "bearer") {
    return { bearer: { type: "http", scheme: "bearer", description: security.description } };
  }
  return {
    apiKey: { type: "apiKey", in: "header", name: security.header, description: security.description },
    ...(security.bearerAlso ? { bearer: { type: "http", scheme: "bearer", description: security.description } } : {}),
  };
}

function securityRequirement(security: OpenApiSecurity): JsonSchema[] {
  if (security.kind === "bearer") return [{ bearer: [] }];
  return security.bearerAlso ? [{ apiKey: [] }, { bearer: [] }] : [{ apiKey: [] }];
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

/** The OpenAPI 3.1 document of `operations`. */
export function openApiDocument(info: OpenApiInfo, operations: readonly OpenApiOperation[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) {
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, JsonSchema>)[op.method] = operationOf(op, info.security);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: info.title,
      version: info.version,
      ...(info.description ? { description: info.description } : {}),
    },
    ...(info.servers ? { servers: info.servers.map((s) => ({ ...s })) } : {}),
    paths,
    components: {
      schemas: { ErrorEnvelope: ERROR_ENVELOPE_SCHEMA, ...info.schemas },
      ...(info.security ? { securitySchemes: securitySchemes(info.security) } : {}),
    },
    ...(info.security ? { security: securityRequirement(info.security) } : {}),
  };
}
