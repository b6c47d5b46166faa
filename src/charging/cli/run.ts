/**
 * The `charging` command line: `search`, `site`, `status` through the very same Fetch
 * handler as the server (in-process on the local dataset, or over HTTP with `--url`), plus
 * `serve` and `import`, which the runtime shim provides. Data goes to stdout; errors go to
 * stderr. Exit codes: 0 ok, 1 not found or failure, 2 bad flags or arguments.
 * @module
 */
import { type OptionSpec, parseArgs } from "../../shared/cli/args.ts";
import { exitCodeOf } from "../../shared/cli/failure.ts";
import { ApiError, isApiError } from "../../shared/errors.ts";
import type { FetchHandler } from "../../shared/http/respond.ts";
import type { Site } from "../model.ts";
import { renderFields, renderSite, renderSites } from "./table.ts";

export const USAGE = `charging: open-data EV charging sites (Open Charge Map, OpenStreetMap)

Usage:
  charging search [filters] [--json] [--url URL]   list sites (table, or JSON with --json)
  charging site <id> [--json] [--url URL]          one site, e.g. ocm:123 or osm:node/123
  charging status <id> [--json] [--url URL]        a site's status (stale after 60 minutes)
  charging serve [--port N] [--host H] [--data FILE]   run the HTTP API (same as dist/charging.js)
  charging import --help                           build a dataset from OCM / OSM files

Search filters:
  --bbox minLon,minLat,maxLon,maxLat   bounding box in degrees
  --near lat,lon [--radius km]         within a radius (default 10 km), nearest first
  --connector TEXT                     connector substring, e.g. ccs, type2, chademo
  --min-power KW                       at least this power in kW
  --open-only                          only sites whose status is AVAILABLE
  --limit N                            1 to 100 (default 20)
  --offset N                           0 to 100000 (default 0)

Without --url the command reads the embedded data (or the file in CHARGING_DATA) in-process.
With --url it asks that server; CHARGING_API_KEY is sent as x-api-key when set.
Exit codes: 0 ok, 1 not found or failed, 2 bad flags or arguments.
`;

export interface CliDeps {
  env: Readonly<Record<string, string | undefined>>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** The handler over the local dataset. */
  local(): Promise<FetchHandler>;
  fetch: typeof fetch;
  /** Starts the server with these environment overrides; resolves once it listens. */
  serve(overrides: Record<string, string>): Promise<number>;
  runImport(args: readonly string[]): Promise<number>;
}

const COMMON: Record<string, OptionSpec> = {
  json: { value: false },
  url: { value: true },
  help: { value: false },
};
const SEARCH: Record<string, OptionSpec> = {
  ...COMMON,
  bbox: { value: true },
  near: { value: true },
  radius: { value: true },
  connector: { value: true },
  "min-power": { value: true },
  "open-only": { value: false },
  limit: { value: true },
  offset: { value: true },
};
const SERVE: Record<string, OptionSpec> = {
  help: { value: false },
  port: { value: true },
  host: { value: true },
  data: { value: true },
};

/** Query parameter of each search flag. */
const PARAM: Record<string, string> = {
  bbox: "bbox",
  near: "near",
  radius: "radiusKm",
  connector: "connector",
  "min-power": "minPower",
  "open-only": "openOnly",
  limit: "limit",
  offset: "offset",
};

function flagsInMessage(message: string): string {
  return Object.entries(PARAM).reduce(
    (text, [flag, param]) => text.replace(new RegExp(`\\b${param}\\b`, "g"), `--${flag}`),
    message,
  );
}

const usage = (message: string) => new ApiError("INVALID_USAGE", message);

interface Target {
  path: string;
  command: "search" | "site" | "status";
}

function targetOf(command: string, positionals: string[], options: Record<string, string | true>): Target {
  if (command === "search") {
    if (positionals.length > 0) throw usage(`search takes no arguments (got "${positionals[0]}")`);
    const query = new URLSearchParams();
    for (const [flag, param] of Object.entries(PARAM)) {
      const value = options[flag];
      if (value !== undefined) query.set(param, value === true ? "true" : value);
    }
    const search = query.size > 0 ? `?${query}` : "";
    return { command, path: `/api/v1/sites${search}` };
  }
  if (command === "site" || command === "status") {
    if (positionals.length !== 1) throw usage(`${command} takes exactly one site id, e.g. ocm:123`);
    const base = command === "site" ? "/api/v1/sites/" : "/api/v1/status/";
    return { command, path: base + encodeURIComponent(positionals[0] as string) };
  }
  throw usage(`unknown command "${command}"`);
}

async function ask(deps: CliDeps, target: Target, url: string | undefined): Promise<Response> {
  if (url === undefined) return (await deps.local())(new Request(`http://localhost${target.path}`));
  let base: URL;
  try {
    base = new URL(url);
    if (base.protocol !== "http:" && base.protocol !== "https:") throw new Error("scheme");
  } catch {
    throw usage(`--url must be an http(s) URL, e.g. http://127.0.0.1:8787`);
  }
  const key = deps.env.CHARGING_API_KEY;
  const headers: Record<string, string> = key ? { "x-api-key": key } : {};
  return deps.fetch(new URL(target.path, base), { headers });
}

function render(target: Target, body: Record<string, unknown>): string {
  if (target.command === "search") {
    const { data, page, attribution } = body as {
      data: Site[];
      page: { limit: number; offset: number; total: number };
      attribution: { text: string; url: string }[];
    };
    return renderSites(data, page, attribution);
  }
  if (target.command === "site") {
    const { data, attribution } = body as { data: Site; attribution?: { text: string; url: string } };
    return renderSite(data, attribution);
  }
  const record = (body as { data: Record<string, unknown> }).data;
  const credit = record.attribution as { text: string; url: string } | undefined;
  return renderFields([
    ["id", record.id as string],
    ["status", record.status as string],
    ["kind", record.kind as string],
    ["retrievedAt", record.retrievedAt as string],
    ["source", record.source as string],
    ["stale", record.stale as boolean],
    ["staleReason", record.staleReason as string | undefined],
    ["attribution", credit ? `${credit.text} (${credit.url})` : undefined],
  ]);
}

async function query(deps: CliDeps, command: string, argv: readonly string[]): Promise<number> {
  const { positionals, options } = parseArgs(argv, command === "search" ? SEARCH : COMMON);
  if (options.help) {
    deps.stdout(USAGE);
    return 0;
  }
  const target = targetOf(command, positionals, options);
  const url = options.url === true ? undefined : options.url;
  let response: Response;
  try {
    response = await ask(deps, target, url);
  } catch (err) {
    // Without --url nothing was reached for: a local data failure (a bad CHARGING_DATA file)
    // goes up to the entry point, which names it and exits 2 for a configuration error.
    if (isApiError(err, "INVALID_USAGE") || url === undefined) throw err;
    deps.stderr(`charging: cannot reach ${url}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    deps.stderr(`charging: the server answered HTTP ${response.status} without JSON\n`);
    return 1;
  }
  if (!response.ok) {
    const error = (body.error ?? {}) as { code?: string; message?: string };
    deps.stderr(
      `charging: ${error.code ?? `HTTP ${response.status}`}: ${flagsInMessage(error.message ?? "")}\n`,
    );
    return error.code === "INVALID_ARGUMENTS" ? 2 : 1;
  }
  deps.stdout(`${options.json ? JSON.stringify(body, null, 2) : render(target, body)}\n`);
  return 0;
}

async function serveCommand(deps: CliDeps, argv: readonly string[]): Promise<number> {
  const { positionals, options } = parseArgs(argv, SERVE);
  if (options.help) {
    deps.stdout(USAGE);
    return 0;
  }
  if (positionals.length > 0) throw usage(`serve takes no arguments (got "${positionals[0]}")`);
  const overrides: Record<string, string> = {};
  if (typeof options.port === "string") overrides.PORT = options.port;
  if (typeof options.host === "string") overrides.HOST = options.host;
  if (typeof options.data === "string") overrides.CHARGING_DATA = options.data;
  try {
    return await deps.serve(overrides);
  } catch (err) {
    if (!isApiError(err, "INVALID_CONFIG")) throw err;
    // "PORT must be an integer" came from --port here: name the flag the user typed.
    let message = err.message;
    for (const [name, flag] of Object.entries(FLAG_OF_VARIABLE)) {
      if (name in overrides) message = message.replace(new RegExp(`\\b${name}\\b`, "g"), flag);
    }
    throw new ApiError("INVALID_CONFIG", message, { cause: err });
  }
}

const FLAG_OF_VARIABLE: Record<string, string> = { PORT: "--port", HOST: "--host", CHARGING_DATA: "--data" };

/** Runs one command line; resolves to the exit code. */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === undefined) {
      deps.stderr(USAGE);
      return 2;
    }
    if (first === "--help" || first === "-h" || first === "help") {
      deps.stdout(USAGE);
      return 0;
    }
    if (first === "import") return await deps.runImport(rest);
    if (first === "serve") return await serveCommand(deps, rest);
    if (first.startsWith("-")) throw usage(`put the command first, e.g. charging search ${first}`);
    return await query(deps, first, rest);
  } catch (err) {
    // Configuration failures go up to the entry point, which names them and exits 2.
    if (!isApiError(err, "INVALID_USAGE")) throw err;
    deps.stderr(`charging: ${err.message}; see charging --help\n`);
    return exitCodeOf(err);
  }
}
