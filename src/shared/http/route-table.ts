/**
 * A handler's routes as one table (method, path, handler), dispatched by itty-router's plain
 * `Router`. Everything around the match stays ours: CORS, entity tags, compression and the
 * error conversion live in the handler, and a wrong method or an unknown path is an `ApiError`
 * thrown to its one conversion point.
 *
 * Two rules on top of itty's matching, so a table answers exactly the paths it lists:
 * - a fixed path (no `:param`) matches only as written; itty alone would also take trailing
 *   slashes (`/healthz/`), which these APIs answer 404;
 * - a path the table knows, asked with a method none of its routes answers, is 405
 *   METHOD_NOT_ALLOWED with `allow` (a GET route also answers HEAD).
 * @module
 */
import { Router } from "../../../deps.ts";
import { ApiError } from "../errors.ts";

/** One route: `params` are itty's raw (still percent-encoded) captures of `path`. */
export interface Route<C = undefined> {
  /** `GET` also answers HEAD. */
  method: "GET" | "POST";
  /** itty-router pattern: `/fixed`, `/items/:id` (one segment) or `/items/:id+` (the rest). */
  path: string;
  handle: (request: Request, params: Readonly<Record<string, string>>, context: C) => Response | Promise<Response>;
  /**
   * The handler takes every method of this path and refuses the others itself (an MCP endpoint
   * answers a JSON-RPC 405, not the envelope).
   */
  everyMethod?: boolean;
  /** Readable without credentials (liveness, the API description); the handler's gate reads it. */
  open?: boolean;
}

/** Dispatches one request: its response, or undefined when no route has its path. */
export type Dispatch<C> = (request: Request, url: URL, context: C) => Promise<Response | undefined>;

type Step<C> = (request: Request & { params: Record<string, string> }, url: URL, context: C) => unknown;

const isFixed = (path: string) => !path.includes(":") && !path.includes("*");

/** Lets a fixed path through only as written; a parameterised one as itty matched it. */
function exactly<C>(path: string, step: Step<C>): Step<C> {
  if (!isFixed(path)) return step;
  return (request, url, context) => (url.pathname === path ? step(request, url, context) : undefined);
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

const readable = (path: string) => path.replace(/(:\w+)\+/g, "$1");

/** `GET /a, /b/:id and POST /c`: the routes of a table, for the 404 message. */
export function describeRoutes<C>(routes: readonly Route<C>[]): string {
  const parts: string[] = [];
  for (const method of ["GET", "POST"] as const) {
    // A path listed with and without its trailing slash is one route to a reader.
    const paths = new Set(routes.filter((r) => r.method === method).map((r) => readable(r.path).replace(/(.)\/$/, "$1")));
    if (paths.size > 0) parts.push(`${method} ${[...paths].join(", ")}`);
  }
  return parts.join(" and ");
}

/** Builds the dispatcher of `routes` (first match wins, in table order). */
export function routeTable<C>(routes: readonly Route<C>[]): Dispatch<C> {
  const router = Router<Request & { params: Record<string, string> }, [URL, C]>();
  for (const route of routes) {
    const step: Step<C> = (request, _url, context) => route.handle(request, request.params, context);
    const guarded = exactly(route.path, step);
    if (route.everyMethod) router.all(route.path, guarded);
    else if (route.method === "GET") router.get(route.path, guarded).head(route.path, guarded);
    else router.post(route.path, guarded);
  }
  // Registered after every route, so they only see what no route of the path answered.
  const refusing = new Set(routes.filter((r) => !r.everyMethod).map((r) => r.path));
  for (const path of refusing) {
    const allow = allowedMethods(routes, path);
    router.all(
      path,
      exactly<C>(path, () => {
        throw methodNotAllowed(allow);
      }),
    );
  }
  return (request, url, context) => router.fetch(request, url, context) as Promise<Response | undefined>;
}
