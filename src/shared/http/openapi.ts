/**
 * The one OpenAPI 3.1 builder: each service's document comes from its operation table (the
 * REST faces, their valibot query schemas, the tools' output schemas) and its route rows, so
 * it cannot drift from what the handler accepts and answers. Query and path parameters are
 * the entries of a valibot object schema; each is rendered as its input type (the string a
 * client sends, with its pattern, length and description), stopping at the first transform.
 * @module
 */
import { toJsonSchema, v } from "../../../deps.ts";
import { ERROR_CODES } from "../errors.ts";
import type { AnyObjectSchema } from "../validate.ts";

type JsonSchema = Record<string, unknown>;

type ParamsSchema = AnyObjectSchema;

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

/** A reference to the error envelope of a document's components. */
export const ERROR_REF = { $ref: "#/components/schemas/ErrorEnvelope" };

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
 * A schema's JSON Schema, without the `$schema` line (it is embedded in documents): `input`
 * as a client writes it (the string before any transform), `output` as an answer carries it.
 */
export function jsonSchemaOf(schema: v.GenericSchema, typeMode: "input" | "output" = "input"): JsonSchema {
  const options = { target: "draft-2020-12", typeMode, errorMode: "ignore" } as const;
  const { $schema: _drop, ...rest } = toJsonSchema(schema, options) as JsonSchema;
  return rest;
}

function parametersOf(where: "query" | "path", params: ParamsSchema | undefined): JsonSchema[] {
  if (!params) return [];
  return Object.entries(params.entries as Record<string, v.GenericSchema>).map(([name, entry]) => {
    const schema = jsonSchemaOf(entry);
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
function hoistDefs(schema: JsonSchema): { schema: JsonSchema; defs: Record<string, JsonSchema> } {
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

/** What the OpenAPI document says of an operation's REST face (a GET route). */
export interface RestFaceDoc
  extends Pick<OpenApiOperation, "operationId" | "summary" | "description" | "tags" | "query" | "pathParams" | "headers"> {
  /** The route pattern as the route table writes it (`/api/v1/sites/:id+`). */
  path: string;
  /** The 200 answer: its description, headers and media types beyond the tool's JSON output. */
  answer: { description: string; headers?: Record<string, string>; alternatives?: Record<string, JsonSchema> };
  /** Failures this route can answer besides the guards' (status: response). */
  errors?: Record<string, OpenApiResponse>;
}

/** An operation as the document sees it: its output schema and its REST face, if any. */
export interface DocumentedOperation {
  /** JSON Schema of the structured answer (its `$defs` are hoisted into the components). */
  output?: JsonSchema;
  rest?: RestFaceDoc | undefined;
}

/** The parts of a service's document that do not come from its operations. */
export interface ServiceDoc {
  info: OpenApiInfo;
  /** Failures every guarded route can answer (rate limit, key). */
  guarded: Record<string, OpenApiResponse>;
  /** POST /mcp: its summary and description, and answers beyond JSON-RPC's 200 and the body cap's 413. */
  mcp: Omit<OpenApiOperation, "method" | "path" | "operationId" | "secured" | "requestBody" | "responses"> & {
    responses?: Record<string, OpenApiResponse>;
  };
  /** The route rows: a fixed route is documented without security when its row is `open`. */
  routes: readonly { path: string; open?: boolean | undefined }[];
  /** Headers of the document's own answer (entity tags on a static cut). */
  documentHeaders?: Record<string, string>;
}

/** The OpenAPI template of a route pattern: `/sites/:id+` is `/sites/{id}`. */
const templateOf = (path: string) => path.replace(/:(\w+)\+?/g, "{$1}");

function restOperation(op: DocumentedOperation & { rest: RestFaceDoc }, doc: ServiceDoc) {
  const { path, answer, errors, ...described } = op.rest;
  const { schema, defs } = hoistDefs(op.output ?? { type: "object" });
  const content = { "application/json": schema, ...answer.alternatives };
  const ok: OpenApiResponse = { description: answer.description, content, ...(answer.headers ? { headers: answer.headers } : {}) };
  const operation: OpenApiOperation = {
    method: "get",
    path: templateOf(path),
    ...described,
    responses: { "200": ok, ...errors, ...doc.guarded },
  };
  return { operation, defs };
}

const JSON_RPC_REQUEST = {
  type: "object",
  required: ["jsonrpc", "method"],
  properties: { jsonrpc: { const: "2.0" }, method: { type: "string" }, id: {}, params: { type: "object" } },
};

function mcpOperation(doc: ServiceDoc): OpenApiOperation {
  return {
    method: "post",
    path: "/mcp",
    operationId: "mcp",
    ...doc.mcp,
    requestBody: { description: "A JSON-RPC 2.0 request or notification", schema: JSON_RPC_REQUEST },
    responses: {
      "200": { description: "The JSON-RPC answer", schema: { type: "object" } },
      ...doc.mcp.responses,
      "413": { description: "PAYLOAD_TOO_LARGE: the body is over the cap", schema: ERROR_REF },
      ...doc.guarded,
    },
  };
}

function fixedOperations(doc: ServiceDoc): OpenApiOperation[] {
  const health = {
    type: "object",
    required: ["ok", "stage"],
    properties: { ok: { const: true }, stage: { type: "integer" } },
  };
  const isOpen = (path: string) => doc.routes.some((route) => route.path === path && route.open === true);
  const documentOpen = isOpen("/api/v1/openapi.json");
  return [
    {
      method: "get",
      path: "/healthz",
      operationId: "health",
      summary: "Liveness and the build stage marker",
      secured: !isOpen("/healthz"),
      responses: { "200": { description: "Alive", schema: health } },
    },
    mcpOperation(doc),
    {
      method: "get",
      path: "/api/v1/openapi.json",
      operationId: "openApi",
      summary: "This document",
      secured: !documentOpen,
      responses: {
        "200": { description: "OpenAPI 3.1", schema: { type: "object" }, ...(doc.documentHeaders ? { headers: doc.documentHeaders } : {}) },
        ...(documentOpen ? {} : doc.guarded),
      },
    },
  ];
}

/** A service's document: its fixed routes (health, MCP, this document) and one path per REST face. */
export function serviceOpenApi(doc: ServiceDoc, operations: readonly DocumentedOperation[]): JsonSchema {
  const rest = operations
    .filter((op): op is DocumentedOperation & { rest: RestFaceDoc } => op.rest !== undefined)
    .map((op) => restOperation(op, doc));
  const schemas = Object.assign({}, doc.info.schemas, ...rest.map((r) => r.defs));
  return openApiDocument({ ...doc.info, schemas }, [...fixedOperations(doc), ...rest.map((r) => r.operation)]);
}
