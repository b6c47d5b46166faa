/**
 * An operation's REST face, declared on the operation itself in both services (a charging row
 * of `OPERATIONS`, an SEO tool's `rest`): what the OpenAPI document says of the route, the
 * schema its query string is parsed by, and how the parsed query (with the path's parameters)
 * becomes the operation's input. The route rows, the document and the answers all read it, so a
 * REST route cannot drift from the operation it runs.
 * @module
 */
import type { RestFaceDoc } from "./openapi.ts";
import { parseQuery, type QuerySchema } from "./query.ts";

export interface RestFace extends RestFaceDoc {
  query: QuerySchema;
  /** The operation's input from the parsed query and the path's raw parameters. */
  toInput(query: Record<string, unknown>, params: Readonly<Record<string, string>>): unknown;
}

/** The operation's input for a request to `url`: its query parsed by the face's schema, then mapped. */
export function restInput(face: RestFace, url: URL, params: Readonly<Record<string, string>> = {}): unknown {
  return face.toInput(parseQuery(face.query, url.searchParams) as Record<string, unknown>, params);
}
