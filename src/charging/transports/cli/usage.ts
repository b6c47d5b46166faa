/**
 * The `charging` command's help texts: the overview (`charging --help`) and one per command
 * (`charging <command> --help`), so a user asking about one command reads only its flags.
 * @module
 */

const FILTERS = `  --bbox minLon,minLat,maxLon,maxLat   bounding box in degrees
  --near lat,lon [--radius km]         within a radius (default 10 km), nearest first
  --connector TEXT                     connector substring, e.g. ccs, type2, chademo
  --connector-type T[,T]               exact connector types: type1 (J1772), type2, ccs1, ccs2,
                                       chademo, nacs, tesla, schuko, ... (names such as "Type 1" work)
  --current AC|DC                      a connector of this current (with --connector-type: the same one)
  --country CC[,CC]                    ISO 3166-1 alpha-2 codes, e.g. DE,AT
  --operator ID[,ID]                   operator ids or names (GET /api/v1/reference lists them)
  --access A[,A]                       public, customers, membership, private, unknown
  --status S[,S]                       AVAILABLE, OUTOFORDER, PLANNED, UNKNOWN, ...
  --updated-since ISO                  only sites updated since, oldest change first (a sync)
  --cursor C                           the next page of a sync (printed under the table)
  --min-power KW                       at least this power in kW
  --open-only                          only sites whose status is AVAILABLE
  --limit N                            1 to 100 (default 20)
  --offset N                           0 to 100000 (default 0)`;

export const USAGE = `charging: open-data EV charging sites (Open Charge Map, OpenStreetMap)

Usage:
  charging search [filters] [--json] [--url URL]   list sites (table, or JSON with --json)
  charging route --polyline P | --geojson FILE [--corridor-km N] [filters]   sites along a route
  charging site <id> [--json] [--url URL]          one site, e.g. ocm:123 or osm:node/123
  charging status <id> [--json] [--url URL]        a site's status (stale after 60 minutes)
  charging serve [--port N] [--host H] [--data FILE]   run the HTTP API (same as dist/charging.js)
  charging import <files...> --out FILE            build a dataset from OCM / OSM files
  charging refresh [--out FILE]                    download the latest OCM / OSM data, import, check, swap
  charging --version | --help | <command> --help

Search filters:
${FILTERS}

Without --url the command reads the embedded data (or the file in CHARGING_DATA) in-process.
With --url it asks that server; CHARGING_API_KEY is sent as x-api-key when set.
Exit codes: 0 ok, 1 not found or failed, 2 bad flags or arguments, 130 interrupted (Ctrl-C).
`;

const WHERE = `  --json       print the answer as JSON (what the HTTP API answers)
  --url URL    ask a running server (e.g. http://127.0.0.1:8787) instead of the local data;
               CHARGING_API_KEY is sent as x-api-key when set`;

const SEARCH_USAGE = `Usage: charging search [filters] [--json] [--url URL]

Lists charging sites, best first (nearest first with --near).
${FILTERS}
${WHERE}
Example: charging search --near 52.52,13.40 --connector ccs --min-power 50 --limit 5
         charging search --connector-type ccs2 --current DC --country DE,AT --access public
`;

const ROUTE_USAGE = `Usage: charging route (--polyline TEXT | --geojson FILE) [--corridor-km N] [filters] [--json] [--url URL]

Lists the sites within N km either side of a route, in order along it, with how far along
(ALONG KM) and how far off it (OFF KM) each one is; a site near two parts of the route counts
once, at its nearest.
  --polyline TEXT      the route as an encoded polyline (Google's algorithm, precision 5);
                       quote it for the shell: it holds characters such as \\ | ~ \` ^
  --geojson FILE       a file holding a GeoJSON LineString ([lon, lat] positions)
  --corridor-km N      corridor half-width in km, more than 0, at most 50 (default 5)
  (2 to 10,000 points, at most 20,000 km; each segment is the shorter great-circle arc)
The search's filters apply (--near, --radius, --updated-since and --cursor do not):
${FILTERS.split("\n").filter((line) => !/^ {2}--(near|updated-since|cursor)\b/.test(line)).join("\n")}
${WHERE}
Example: charging route --polyline '_p~iF~ps|U_ulLnnqC_mqNvxq\`@' --corridor-km 10 --min-power 50
`;

const SITE_USAGE = `Usage: charging site <id> [--json] [--url URL]

Prints one site: address, connectors, power, operator, licence and attribution.
  <id>         a site id from charging search, e.g. ocm:123, osm:node/123 or osm:way/123
${WHERE}
`;

const STATUS_USAGE = `Usage: charging status <id> [--json] [--url URL]

Prints a site's status: the registry status, or the live feed's when the server has one;
a status older than 60 minutes is marked stale.
  <id>         a site id from charging search, e.g. ocm:123 or osm:node/123
${WHERE}
`;

const SERVE_USAGE = `Usage: charging serve [--port N] [--host H] [--data FILE]

Runs the HTTP API (REST and MCP) until Ctrl-C (exit 130) or SIGTERM (exit 0).
  --port N     TCP port (default 8787, or PORT; 0 = any free port)
  --host H     interface to bind (default 127.0.0.1, or HOST)
  --data FILE  a snapshot or JSON data set from charging import (default: the embedded data,
               or CHARGING_DATA)
Other settings come from the environment (CHARGING_API_KEYS, ...): see the API documentation.
`;

/** Each command's own help text; `import` has its own (IMPORT_USAGE). */
export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  search: SEARCH_USAGE,
  route: ROUTE_USAGE,
  site: SITE_USAGE,
  status: STATUS_USAGE,
  serve: SERVE_USAGE,
};
