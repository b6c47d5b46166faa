/**
 * The `charging` command line: `search`, `route`, `site`, `status` through the very same Fetch
 * handler as the server (in-process on the local dataset, or over HTTP with `--url`), plus
 * `serve` and `import`, which the runtime shim provides. Data goes to stdout; every failure is
 * one stderr line, `CODE: what happened; what to do`, naming this command's flags. Exit codes:
 * 0 ok, 1 not found or failure, 2 bad flags or arguments (130 on Ctrl-C comes from the shim).
 * @module
 */
import { metaFlagOf, type OptionSpec, optionTable, parseArgs, usage } from "../../../shared/cli/args.ts";
import { exitCodeOf, failureLine } from "../../../shared/cli/failure.ts";
import { VERSION } from "../../../shared/build-info.ts";
import { ApiError, isApiError, messageOf } from "../../../shared/errors.ts";
import type { FetchHandler } from "../../../shared/http/respond.ts";
import type { Site } from "../../data/model.ts";
import type { StatusRecord } from "../../status/service.ts";
import { answerError, type Asked, PARAM } from "./answer-error.ts";
import { ROUTE_OPTIONS, routeRequest } from "./route.ts";
import { renderFields, renderSite, renderSites } from "./table.ts";
import { COMMAND_USAGE, USAGE } from "./usage.ts";

export { USAGE } from "./usage.ts";

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
  runRefresh(args: readonly string[]): Promise<number>;
  /** A file's text (`charging route --geojson FILE`); without it, files cannot be read. */
  readText?(path: string): Promise<string>;
}

const COMMON = optionTable(["url"], ["json", "help"]);
const SEARCH: Record<string, OptionSpec> = {
  ...COMMON,
  ...Object.fromEntries(Object.keys(PARAM).map((flag) => [flag, { value: flag !== "open-only" }])),
};
const SERVE = optionTable(["port", "host", "data"], ["help"]);

const noFiles = (path: string) => Promise.reject(new Error(`no file access here to read ${path}`));

interface Target extends Asked {
  path: string;
  /** A request other than a plain GET (the route search's POST). */
  init?: RequestInit;
}

function searchTarget(positionals: string[], options: Record<string, string | true>): Target {
  if (positionals.length > 0) throw usage(`search takes no arguments (got "${positionals[0]}"); give filters as flags, e.g. --near 52.52,13.40`);
  const query = new URLSearchParams();
  for (const [flag, param] of Object.entries(PARAM)) {
    const value = options[flag];
    if (value !== undefined) query.set(param, value === true ? "true" : value);
  }
  const search = query.size > 0 ? `?${query}` : "";
  return { command: "search", path: `/api/v1/sites${search}` };
}

function targetOf(command: string, positionals: string[], options: Record<string, string | true>): Target {
  if (command === "search") return searchTarget(positionals, options);
  if (command === "site" || command === "status") {
    if (positionals.length !== 1) throw usage(`${command} takes exactly one site id, e.g. charging ${command} ocm:123`);
    const id = positionals[0] as string;
    const base = command === "site" ? "/api/v1/sites/" : "/api/v1/status/";
    return { command, id, path: base + encodeURIComponent(id) };
  }
  throw usage(`unknown command "${command}"; the commands are search, route, site, status, serve, import and refresh (see charging --help)`);
}

function baseUrl(url: string): URL {
  // Not a URL at all (null) gets the same answer as a URL of another scheme.
  const base = URL.parse(url);
  if (base?.protocol === "http:" || base?.protocol === "https:") return base;
  throw usage(`--url must be an http(s) URL, e.g. http://127.0.0.1:8787`);
}

/** fetch's own text is "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, ...) is its cause. */
function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  return cause?.code ?? cause?.message ?? messageOf(err);
}

async function ask(deps: CliDeps, target: Target): Promise<Response> {
  const { init = {} } = target;
  if (target.url === undefined) return (await deps.local())(new Request(`http://localhost${target.path}`, init));
  const base = baseUrl(target.url);
  const key = deps.env.CHARGING_API_KEY;
  const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined), ...(key ? { "x-api-key": key } : {}) };
  try {
    return await deps.fetch(new URL(target.path, base), { ...init, headers });
  } catch (err) {
    const why = networkReason(err);
    throw new ApiError("UNREACHABLE", `cannot reach ${target.url}: ${why}; check --url and that the server is running (charging serve)`);
  }
}

const STATUS_FIELDS = ["id", "status", "kind", "retrievedAt", "source", "stale", "staleReason"] as const;

function render(target: Target, body: Record<string, unknown>): string {
  if (target.command === "search" || target.command === "route") {
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
  const record = (body as { data: StatusRecord }).data;
  const credit = record.attribution as StatusRecord["attribution"] | undefined;
  return renderFields([
    ...STATUS_FIELDS.map((key) => [key, record[key]] as const),
    ["attribution", credit ? `${credit.text} (${credit.url})` : undefined],
  ]);
}

/** The answer's JSON body; a body that is not JSON means --url names something else. */
async function bodyOf(target: Target, response: Response): Promise<Record<string, unknown>> {
  try {
    return JSON.parse(await response.text()) as Record<string, unknown>;
  } catch {
    throw new ApiError(
      "UPSTREAM_UNAVAILABLE",
      `${target.url ?? "the local data"} answered HTTP ${response.status} without JSON; check that --url names a charging server (one started with charging serve)`,
    );
  }
}

/** Tells of a refusal; a value refused is the user's argument at fault, as a bad flag is (exit 2). */
function refused(deps: CliDeps, command: string, refusal: ApiError): number {
  deps.stderr(`${failureLine(refusal, `charging ${command} --help`)}\n`);
  return refusal.code === "INVALID_ARGUMENTS" ? 2 : 1;
}

async function query(deps: CliDeps, command: string, argv: readonly string[]): Promise<number> {
  const specs = command === "search" ? SEARCH : command === "route" ? { ...COMMON, ...ROUTE_OPTIONS } : COMMON;
  const { positionals, options } = parseArgs(argv, specs);
  let target: Target;
  try {
    target = command === "route" ? await routeRequest(positionals, options, deps.readText ?? noFiles) : targetOf(command, positionals, options);
  } catch (err) {
    // A route's query is read here before it is sent: its refusal exits as the server's would.
    if (!isApiError(err, "INVALID_ARGUMENTS")) throw err;
    return refused(deps, command, err);
  }
  if (typeof options.url === "string") target.url = options.url;
  const response = await ask(deps, target);
  const body = await bodyOf(target, response);
  if (!response.ok) {
    const error = (body.error ?? {}) as { code?: string; message?: string };
    return refused(deps, command, answerError(target, response.status, error));
  }
  deps.stdout(`${options.json ? JSON.stringify(body, null, 2) : render(target, body)}\n`);
  return 0;
}

const FLAG_OF_VARIABLE: Record<string, string> = { PORT: "--port", HOST: "--host", CHARGING_DATA: "--data" };

async function serveCommand(deps: CliDeps, argv: readonly string[]): Promise<number> {
  const { positionals, options } = parseArgs(argv, SERVE);
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

/** `charging --version`, `charging --help`, and both after any command. */
function answerMeta(deps: CliDeps, command: string | undefined, meta: "help" | "version"): number {
  if (meta === "version") deps.stdout(`${VERSION}\n`);
  else deps.stdout((command !== undefined && COMMAND_USAGE[command]) || USAGE);
  return 0;
}

/** A leading flag: `--limit 5` alone most likely meant `charging search --limit 5`. */
function leadingFlag(argv: readonly string[]): ApiError {
  const flag = argv[0] as string;
  const name = flag.replace(/^-+/, "").split("=")[0] as string;
  if (Object.hasOwn(PARAM, name)) return usage(`${flag} comes before a command; put the command first: charging search ${argv.join(" ")}`);
  return usage(`unknown option ${flag}; the command comes first (see charging --help)`);
}

async function dispatch(argv: readonly string[], deps: CliDeps): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "help" || first === "-v") return answerMeta(deps, rest[0], first === "-v" ? "version" : "help");
  // import and refresh have a --help of their own; their --version is the program's.
  const meta = metaFlagOf(argv);
  if (meta && !((first === "import" || first === "refresh") && meta === "help")) return answerMeta(deps, first, meta);
  if (first === undefined) throw usage("a command is required: search, route, site, status, serve, import or refresh");
  if (first === "import") return deps.runImport(rest);
  if (first === "refresh") return deps.runRefresh(rest);
  if (first === "serve") return serveCommand(deps, rest);
  if (first.startsWith("-")) throw leadingFlag(argv);
  return query(deps, first, rest);
}

/** Runs one command line; resolves to the exit code. */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<number> {
  try {
    return await dispatch(argv, deps);
  } catch (err) {
    // A bad data file or setting the in-process handler hit names itself; it exits 2 like a bad flag.
    if (!isApiError(err)) throw err;
    const command = argv[0] !== undefined && COMMAND_USAGE[argv[0]] ? `charging ${argv[0]} --help` : "charging --help";
    deps.stderr(`${failureLine(err, command)}\n`);
    return exitCodeOf(err);
  }
}
