/**
 * One operation of an OpenAPI document: its parameters (the entries of valibot object
 * schemas), request body and answers. A parameter is declared as the last schema of its pipe
 * says: a query entry read from text into a number (`queryNumber`) is an integer or a number
 * with its range, as a generated client should type it; other entries are the text a client
 * sends, with its pattern and length.
 * @module
 */
import type { v } from "../../../deps.ts";
import type { AnyObjectSchema } from "../validate.ts";
import { ERROR_REF, type JsonSchema, jsonSchemaOf } from "./openapi-schemas.ts";

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

/** An error answer: its description (the code and when) over the shared error envelope. */
export const errorDoc = (description: string): OpenApiResponse => ({ description, schema: ERROR_REF });

export interface OpenApiOperation {
  method: "get" | "post" | "put" | "delete" | "patch" | "head" | "options";
  /** OpenAPI path template, e.g. `/api/v1/sites/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags?: readonly string[];
  query?: AnyObjectSchema;
  pathParams?: AnyObjectSchema;
  /** Extra header parameters (for example BYOK key headers), by name. */
  headers?: Record<string, { description: string; required?: boolean }>;
  requestBody?: { description: string; schema: JsonSchema; contentType?: string };
  /** Keyed by status code (`"200"`) or `"default"`. */
  responses: Record<string, OpenApiResponse>;
  /** False for routes the security scheme does not cover (liveness). Default true. */
  secured?: boolean;
}

function parametersOf(where: "query" | "path", params: AnyObjectSchema | undefined): JsonSchema[] {
  if (!params) return [];
  return Object.entries(params.entries as Record<string, v.GenericSchema>).map(([name, entry]) => {
    const { description, ...schema } = jsonSchemaOf(entry, "output");
    const required = where === "path" || (entry.type !== "optional" && entry.type !== "exact_optional");
    return {
      name,
      in: where,
      required,
      ...(typeof description === "string" ? { description } : {}),
      schema,
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

function contentOf(response: OpenApiResponse): JsonSchema {
  if (response.content) {
    return { content: Object.fromEntries(Object.entries(response.content).map(([type, schema]) => [type, { schema }])) };
  }
  return response.schema ? { content: { [response.contentType ?? "application/json"]: { schema: response.schema } } } : {};
}

function responseOf(response: OpenApiResponse): JsonSchema {
  const headers = Object.entries(response.headers ?? {});
  const described = headers.map(([name, description]) => [name, { description, schema: { type: "string" } }]);
  return {
    description: response.description,
    ...(headers.length > 0 ? { headers: Object.fromEntries(described) } : {}),
    ...contentOf(response),
  };
}

function requestBodyOf(body: NonNullable<OpenApiOperation["requestBody"]>): JsonSchema {
  return {
    required: true,
    description: body.description,
    content: { [body.contentType ?? "application/json"]: { schema: body.schema } },
  };
}

/** The document's object of `op`; `gated` when the document declares a security requirement. */
export function operationOf(op: OpenApiOperation, gated: boolean): JsonSchema {
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
    ...(op.requestBody ? { requestBody: requestBodyOf(op.requestBody) } : {}),
    responses: Object.fromEntries(Object.entries(op.responses).map(([code, r]) => [code, responseOf(r)])),
    ...(gated && op.secured === false ? { security: [] } : {}),
  };
}
