/**
 * The one OpenAPI 3.1 builder: each service's document comes from its operation table (the
 * REST faces, their valibot query schemas, the tools' output schemas) and its route rows, so
 * it cannot drift from what the handler accepts and answers. The parts live beside it:
 * openapi-schemas.ts (JSON Schemas), openapi-operation.ts (one operation, its parameters and
 * answers), openapi-fixed.ts (the routes and answers every service has).
 * @module
 */
import { fixedOperations, type FixedDoc, templateOf, withRouteAnswers } from "./openapi-fixed.ts";
import { type OpenApiOperation, type OpenApiResponse, operationOf } from "./openapi-operation.ts";
import {
  ERROR_ENVELOPE_SCHEMA,
  hoistDefs,
  JSON_RPC_ERROR_SCHEMA,
  jsonSchemaOf,
  type JsonSchema,
} from "./openapi-schemas.ts";
import type { AnyObjectSchema } from "../validate.ts";

export { ERROR_ENVELOPE_SCHEMA, ERROR_REF, jsonSchemaOf } from "./openapi-schemas.ts";
export { errorDoc, type OpenApiOperation, type OpenApiResponse } from "./openapi-operation.ts";

export type OpenApiSecurity =
  | { kind: "bearer"; description: string }
  | { kind: "apiKey"; header: string; description: string; bearerAlso?: boolean };

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  /** The licence of the API (an SPDX identifier). */
  license?: { name: string; identifier: string };
  /** Default: the origin that serves the document (`/`). */
  servers?: readonly { url: string; description?: string }[];
  /** The scheme when a gate is configured; omitted when the API is open. */
  security?: OpenApiSecurity;
  /** Named schemas for `components.schemas` (for `#/components/schemas/<name>` references). */
  schemas?: Record<string, JsonSchema>;
  /** Descriptions of the tags operations use, beyond `meta`, `mcp` and `rest`. */
  tags?: Record<string, string>;
}

const SAME_ORIGIN = [{ url: "/", description: "The origin that serves this document" }];

const TAGS: Record<string, string> = {
  meta: "Liveness and this document",
  mcp: "The Model Context Protocol endpoint (stateless Streamable HTTP)",
  rest: "The REST routes",
};

function securitySchemes(security: OpenApiSecurity): JsonSchema {
  if (security.kind === "bearer") {
    return { bearer: { type: "http", scheme: "bearer", description: security.description } };
  }
  return {
    apiKey: { type: "apiKey", in: "header", name: security.header, description: security.description },
    ...(security.bearerAlso ? { bearer: { type: "http", scheme: "bearer", description: security.description } } : {}),
  };
}

/** The requirement every operation has unless it says otherwise; none (`[]`) when the API is open. */
function securityRequirement(security: OpenApiSecurity | undefined): JsonSchema[] {
  if (!security) return [];
  if (security.kind === "bearer") return [{ bearer: [] }];
  return security.bearerAlso ? [{ apiKey: [] }, { bearer: [] }] : [{ apiKey: [] }];
}

function tagsOf(info: OpenApiInfo, operations: readonly OpenApiOperation[]): JsonSchema[] {
  const described: Record<string, string> = { ...TAGS, ...info.tags };
  const used = [...new Set(operations.flatMap((op) => op.tags ?? []))];
  return used.map((name) => ({ name, ...(described[name] ? { description: described[name] } : {}) }));
}

/** The OpenAPI 3.1 document of `operations`. */
export function openApiDocument(info: OpenApiInfo, operations: readonly OpenApiOperation[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) {
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, JsonSchema>)[op.method] = operationOf(op, info.security !== undefined);
  }
  const tags = tagsOf(info, operations);
  return {
    openapi: "3.1.0",
    info: {
      title: info.title,
      version: info.version,
      ...(info.description ? { description: info.description } : {}),
      ...(info.license ? { license: { ...info.license } } : {}),
    },
    servers: (info.servers ?? SAME_ORIGIN).map((s) => ({ ...s })),
    ...(tags.length > 0 ? { tags } : {}),
    paths,
    components: {
      schemas: { ErrorEnvelope: ERROR_ENVELOPE_SCHEMA, ...info.schemas },
      ...(info.security ? { securitySchemes: securitySchemes(info.security) } : {}),
    },
    security: securityRequirement(info.security),
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
  /** The same operation also as `POST <path>`: its input as a JSON body (`body` validates it), `query` what the URL may add. */
  post?: { operationId: string; description: string; body: AnyObjectSchema; query: AnyObjectSchema };
}

/** An operation as the document sees it: its output schema and its REST face, if any. */
export interface DocumentedOperation {
  /** JSON Schema of the structured answer (its `$defs` are hoisted into the components). */
  output?: JsonSchema;
  rest?: RestFaceDoc | undefined;
}

/** The parts of a service's document that do not come from its operations. */
export interface ServiceDoc extends FixedDoc {
  info: OpenApiInfo;
}

/** The POST twin of a REST face: the same answers (not cacheable: no cache headers), the input as a JSON body. */
function postOperation(get: OpenApiOperation, post: NonNullable<RestFaceDoc["post"]>) {
  const { schema, defs } = hoistDefs(jsonSchemaOf(post.body));
  const { query: _query, responses, ...rest } = get;
  const { headers: _cacheHeaders, ...ok } = responses["200"] as OpenApiResponse;
  const operation: OpenApiOperation = {
    ...rest,
    method: "post",
    operationId: post.operationId,
    query: post.query,
    requestBody: { description: post.description, schema },
    responses: { ...responses, "200": ok },
  };
  return { operation, defs };
}

function restOperation(op: DocumentedOperation & { rest: RestFaceDoc }) {
  const { path, answer, errors, post: _post, tags = ["rest"], ...described } = op.rest;
  const { schema, defs } = hoistDefs(op.output ?? { type: "object" });
  const content = { "application/json": schema, ...answer.alternatives };
  const ok = { description: answer.description, content, ...(answer.headers ? { headers: answer.headers } : {}) };
  const operation: OpenApiOperation = {
    method: "get",
    path: templateOf(path),
    tags,
    ...described,
    responses: { "200": ok, ...errors },
  };
  return { operation, defs };
}

/** A service's document: its fixed routes (health, MCP, this document) and one path per REST face. */
export function serviceOpenApi(doc: ServiceDoc, operations: readonly DocumentedOperation[]): JsonSchema {
  const rest = operations
    .filter((op): op is DocumentedOperation & { rest: RestFaceDoc } => op.rest !== undefined)
    .flatMap((op) => {
      const get = restOperation(op);
      return op.rest.post ? [get, postOperation(get.operation, op.rest.post)] : [get];
    });
  const schemas = Object.assign({ JsonRpcError: JSON_RPC_ERROR_SCHEMA }, doc.info.schemas, ...rest.map((r) => r.defs));
  const gated = doc.info.security !== undefined;
  const all = [...fixedOperations(doc), ...rest.map((r) => r.operation)].map((op) => withRouteAnswers(op, doc, gated));
  return openApiDocument({ ...doc.info, schemas }, all);
}
