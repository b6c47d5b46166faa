/**
 * A refusal from the charging handler (in-process, or a server named by --url) in the words
 * of the command line: the flags the user typed instead of query parameters, and the
 * commands to run instead of HTTP routes. The handler's messages are written for HTTP
 * clients; a terminal user cannot call `GET /api/v1/sites`.
 * @module
 */
import { ApiError, ERROR_CODES, type ErrorCode } from "../../../shared/errors.ts";

/** Query parameter of each search flag. */
export const PARAM: Readonly<Record<string, string>> = {
  bbox: "bbox",
  near: "near",
  radius: "radiusKm",
  connector: "connector",
  "min-power": "minPower",
  "open-only": "openOnly",
  "connector-type": "connectorType",
  current: "current",
  country: "country",
  operator: "operator",
  access: "access",
  status: "status",
  "updated-since": "updatedSince",
  cursor: "cursor",
  limit: "limit",
  offset: "offset",
};

/** What the user asked: the command, its site id, and the server when --url was given. */
export interface Asked {
  command: "search" | "site" | "status" | "route";
  id?: string;
  url?: string;
}

const FIND_AN_ID = "find one with charging search (e.g. charging search --near 52.52,13.40 --limit 5)";

/** Route flags, and the names a POSTed route search's refusals use. */
const ROUTE_FLAGS: Readonly<Record<string, string>> = {
  polyline: "polyline",
  geojson: "geojson",
  "corridor-km": "corridorKm",
  "min-power": "minPowerKw",
};

/** The handler's message with every query parameter replaced by the flag that sets it. */
function inFlags(message: string): string {
  return [...Object.entries(PARAM), ...Object.entries(ROUTE_FLAGS)].reduce(
    (text, [flag, param]) => text.replace(new RegExp(`\\b${param}\\b`, "g"), `--${flag}`),
    message,
  );
}

/** HTTP routes and headers in a message, as the command and setting a CLI user has. */
function inCommands(message: string): string {
  return message
    .replace(/\bGET \/api\/v1\/sites\b/g, "charging search")
    .replace(/\s*\(colon sent as %3A\)/g, "")
    .replace(/the x-api-key header/g, "CHARGING_API_KEY");
}

function notFound(asked: Asked): ApiError {
  if (asked.id !== undefined)
    return new ApiError("NOT_FOUND", `no open site has id "${asked.id.slice(0, 100)}" (unknown, closed, or not an id like ocm:123 or osm:node/123); ${FIND_AN_ID}`);
  return new ApiError("NOT_FOUND", `${asked.url ?? "the server"} has no charging-site search; check that --url names a charging server (one started with charging serve)`);
}

function unauthorized(message: string): ApiError {
  const next = /required/i.test(message)
    ? "the server needs an API key; set CHARGING_API_KEY to one of its keys (CHARGING_API_KEYS on the server)"
    : "the server refused the key in CHARGING_API_KEY; set it to one of the server's keys (CHARGING_API_KEYS on the server)";
  return new ApiError("UNAUTHORIZED", next);
}

const codeOf = (code: string | undefined): ErrorCode =>
  ERROR_CODES.includes(code as ErrorCode) ? (code as ErrorCode) : "UPSTREAM_UNAVAILABLE";

/** The handler's error envelope (or an HTTP status without one) as an error for the terminal. */
export function answerError(asked: Asked, status: number, error: { code?: string; message?: string }): ApiError {
  const code = codeOf(error.code);
  if (code === "NOT_FOUND") return notFound(asked);
  if (code === "UNAUTHORIZED") return unauthorized(error.message ?? "");
  const message = inCommands(inFlags(error.message ?? `the server answered HTTP ${status}`));
  // The handler's next step for a bad argument is an HTTP client's ("call again").
  if (code === "INVALID_ARGUMENTS") return new ApiError(code, `${message}; see charging ${asked.command} --help`);
  return new ApiError(code, message);
}
