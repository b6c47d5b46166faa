/**
 * The `:id` of the site and status routes: `ocm:<n>`, `osm:node|way|relation/<n>`, the colon
 * as `%3A` or as is, the slash as `%2F` or as is. The valibot schema of the OpenAPI parameter
 * is built on the same pattern the route checks.
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";

// 20 digits hold any OCM or OSM id (both under 2^64); a longer number is echoed clipped.
const ID_SHAPE = /^(ocm:\d{1,20}|osm:(node|way|relation)\/\d{1,20})$/;

const SiteIdSchema = v.pipe(
  v.string(),
  v.regex(ID_SHAPE),
  v.description("A site id from a search: ocm:<n>, osm:node/<n>, osm:way/<n> or osm:relation/<n> (colon as %3A, slash as %2F or as is)"),
);

export const SitePathSchema = v.object({ id: SiteIdSchema });

/** The site id in a route's `id` parameter; NOT_FOUND when it cannot be one. */
export function siteIdOf(raw: string | undefined): string {
  let id: string;
  try {
    id = decodeURIComponent(raw ?? "");
  } catch {
    id = raw ?? "";
  }
  if (!ID_SHAPE.test(id)) {
    throw new ApiError(
      "NOT_FOUND",
      `No site has id "${id.slice(0, 100)}"; ids look like ocm:123, osm:node/123 or osm:way/123 (colon sent as %3A). Search with GET /api/v1/sites first`,
    );
  }
  return id;
}
