/**
 * What every SEO REST face shares in the OpenAPI document: the BYOK headers as parameters, the
 * errors a route can answer besides its result and the guards' refusals, and the tag.
 * @module
 */
import { errorDoc, type OpenApiResponse } from "../../shared/http/openapi-operation.ts";
import { BYOK_HEADERS } from "./byok.ts";

/** The BYOK headers as documented parameters. */
export const KEY_HEADERS = Object.fromEntries(
  Object.values(BYOK_HEADERS).map(({ header, variable }) => [
    header,
    {
      description: `Your own ${variable} for this request (${variable === "SEO_GSC_CREDENTIALS" ? "service-account JSON, as is or base64-encoded" : "an API key"}); sent only to its provider, never logged or echoed. Default: the deployer's`,
    },
  ]),
);

/** What a REST route can answer besides its result and the guards' refusals. */
const REST_ERRORS: Record<string, OpenApiResponse> = {
  "400": errorDoc("INVALID_ARGUMENTS: a query parameter is missing, unknown, repeated, empty or out of range"),
  "403": errorDoc("UPSTREAM_BLOCKED: the URL (or a redirect hop) is a loopback, private, link-local or metadata address"),
  "405": errorDoc("METHOD_NOT_ALLOWED: only GET"),
  "500": errorDoc("INTERNAL: unexpected failure; retry once"),
  "502": errorDoc("UPSTREAM_UNAVAILABLE: the page or every source could not be reached"),
};

/** The parts of the document every SEO REST face shares. */
export const REST_DOC = { tags: ["rest"], headers: KEY_HEADERS, errors: REST_ERRORS } as const;

/** A parsed query without the parameters the client left out (the tool's defaults apply to them). */
export const definedEntries = (entries: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
