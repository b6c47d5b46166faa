/**
 * What the OpenAPI document says of the charging REST answers beyond the operations' JSON
 * outputs: the cache headers and the not-found answer of a site's routes.
 * @module
 */
import { errorDoc } from "../../shared/http/openapi.ts";

export const NOT_FOUND_DOC = errorDoc("NOT_FOUND: unknown, closed or malformed id");

export const CACHE_HEADERS = {
  etag: "Entity tag of this answer for this data cut (send it back in if-none-match)",
  "last-modified": "When this data cut was imported (send it back in if-modified-since)",
  "cache-control": "public, max-age=300 (private when a key gate is on)",
};
