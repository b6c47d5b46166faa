/**
 * A handler's routes as one table (method, path, handler) and its dispatcher. Everything
 * around the match stays in the handler: CORS, entity tags, compression and the error
 * conversion; a wrong method or an unknown path is an `ApiError` thrown to its one conversion
 * point.
 *
 * Paths use itty-router's pattern syntax (`/fixed`, `/items/:id`, `/files/:path+`), matched
 * here by a plain loop rather than by itty-router's `Router`: on the charging API's hottest
 * request (a cached search answer) the Router added half to all of the handler's own time, as
 * it parses the URL a second time, builds a query object and tests a regular expression per
 * route (figures: README, Decisions, "Structure"). Matching is exact: a fixed path only as
 * written (no trailing-slash variants), and a path the table knows asked with a method none of
 * its routes answers is 405 METHOD_NOT_ALLOWED with `allow` (a GET route also answers HEAD).
 * @module
 */
import { ApiError } from "../errors.ts";

/** One route: `params` are the raw (still percent-encoded) captures of `path`. */
export interface Route<C = undefined> {
  /** `GET` also answers HEAD. */
  method: "GET" | "POST";
  /** `/fixed`, `/items/:id` (one segment) or `/items/:id+` (the rest), as itty-router writes them. */
  path: string;
  handle: (request: Request, params: Readonly<Record<string, string>>, context: C) => Response | Promise<Response>;
  /**
   * The handler takes every method of this path and refuses the others itself (an MCP endpoint
   * answers a JSON-RPC 405, not the envelope).
   */
  everyMethod?: boolean;
  /** Readable without credentials (liveness, the API description): the key gate lets it through. */
  open?: boolean;
  /** Not counted by the rate limit (a liveness probe the service exempts). */
  unmetered?: boolean;
  /** How a failure on this path answers (default: the error envelope); an MCP endpoint answers JSON-RPC. */
  failure?: (err: unknown) => Response;
  /** The query parameter a caller must send, shown in the 404 message (`url`: `/page-report?url=`). */
  required?: string;
}

/** Dispatches one request: its response, or undefined when no route has its path. */
type Dispatch<C> = (request: Request, url: URL, context: C) => Response | Promise<Response> | undefined;

/** A compiled path: the params of `pathname`, or undefined when it does not match. */
type Matcher = (pathname: string) => Record<string, string> | undefined;

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Compiles an itty-style pattern. A fixed path compares as a string; `:name` takes one
 * non-empty segment and `:name+` (last) the non-empty rest, both still percent-encoded.
 */
export function compilePath(path: string): Matcher {
  if (!path.includes(":")) return (pathname) => (pathname === path ? NO_PARAMS : undefined);
  const parts = path.split("/");
  return (pathname) => {
    const segments = pathname.split("/");
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      const segment = segments[i];
      if (segment === undefined) return undefined;
      if (!part.startsWith(":")) {
        if (segment !== part) return undefined;
      } else if (part.endsWith("+")) {
        const rest = segments.slice(i).join("/");
        if (rest === "") return undefined;
        params[part.slice(1, -1)] = rest;
        return params;
      } else {
        if (segment === "") return undefined;
        params[part.slice(1)] = segment;
      }
    }
    return segments.length === parts.length ? params : undefined;
  };
}

/** The methods a path answers, as the `allow` header lists them. */
export function allowedMethods<C>(routes: readonly Route<C>[], path: string): string[] {
  const methods = routes.filter((r) => r.path === path).flatMap((r) => (r.method === "GET" ? ["GET", "HEAD"] : [r.method]));
  return [...new Set(methods)];
}

function methodNotAllowed(allow: readonly string[]): ApiError {
  const listed = allow.length > 1 ? `${allow.slice(0, -1).join(", ")} and ${allow.at(-1)}` : allow.join("");
  return new ApiError("METHOD_NOT_ALLOWED", `This route answers ${listed} only`, {
    headers: { allow: allow.join(", ") },
  });
}

/** A row as a reader writes it: no itty `+`, no trailing slash, its required parameter. */
const readable = <C>({ path, required }: Route<C>) =>
  path.replace(/(:\w+)\+/g, "$1").replace(/(.)\/$/, "$1") + (required ? `?${required}=` : "");

/** `GET /a, /b/:id, /c?q= and POST /d`: the routes of a table, for the 404 message. */
export function describeRoutes<C>(routes: readonly Route<C>[]): string {
  const parts: string[] = [];
  for (const method of ["GET", "POST"] as const) {
    // A path listed with and without its trailing slash is one route to a reader.
    const paths = new Set(routes.filter((r) => r.method === method).map(readable));
    if (paths.size > 0) parts.push(`${method} ${[...paths].join(", ")}`);
  }
  return parts.join(" and ");
}

interface Compiled<C> {
  route: Route<C>;
  match: Matcher;
  /** What the route answers: its method, HEAD with GET, or undefined for every method. */
  methods: ReadonlySet<string> | undefined;
}

function compile<C>(route: Route<C>): Compiled<C> {
  const methods = route.everyMethod ? undefined : new Set(route.method === "GET" ? ["GET", "HEAD"] : [route.method]);
  return { route, match: compilePath(route.path), methods };
}

/** Builds the dispatcher of `routes` (first match wins, in table order). */
export function routeTable<C>(routes: readonly Route<C>[]): Dispatch<C> {
  const compiled = routes.map(compile);
  const allow = new Map(routes.map((r) => [r.path, allowedMethods(routes, r.path)]));
  return (request, url, context) => {
    let known: string | undefined;
    for (const { route, match, methods } of compiled) {
      const params = match(url.pathname);
      if (params === undefined) continue;
      if (methods === undefined || methods.has(request.method)) return route.handle(request, params, context);
      known ??= route.path;
    }
    if (known !== undefined) throw methodNotAllowed(allow.get(known) ?? []);
    return undefined;
  };
}
