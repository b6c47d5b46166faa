/**
 * The gateway's REST routes: each is the `rest` face of an SEO tool (its query schema and how
 * the query becomes the tool's arguments sit on the tool: tools/page-report.ts,
 * tools/keyword-ideas.ts). A route runs its tool and answers the structured result as JSON, so
 * REST and MCP cannot disagree; the OpenAPI document reads the same faces.
 * @module
 */
import { VERSION } from "../../shared/build-info.ts";
import { ApiError } from "../../shared/errors.ts";
import type { ServiceDoc } from "../../shared/http/openapi.ts";
import { errorDoc } from "../../shared/http/openapi-operation.ts";
import { restInput } from "../../shared/http/rest-face.ts";
import { json } from "../../shared/http/respond.ts";
import { invokeTool } from "../../shared/mcp/invoke.ts";
import type { ToolDef } from "../../shared/mcp/tool.ts";
import { KEY_HEADERS } from "./rest-doc.ts";

/** Answers the REST route at `url` with the tool from this request's `tools` (the handler's route table has checked the method). */
export async function serveRest(request: Request, url: URL, tools: readonly ToolDef[]): Promise<Response> {
  const tool = tools.find((t) => t.rest?.path === url.pathname);
  if (!tool?.rest) throw new ApiError("NOT_FOUND", `${url.pathname} is not a REST route`);
  const out = await invokeTool(tool, restInput(tool.rest, url), { signal: request.signal, progress: () => {} });
  return json(out.structured);
}

/** The parts of the gateway's OpenAPI document that are not its REST faces; `secured` when GATEWAY_AUTH_TOKEN is set. */
export function gatewayDoc(secured: boolean, routes: ServiceDoc["routes"]): ServiceDoc {
  return {
    info: {
      title: "seo-audit-mcp gateway",
      version: VERSION,
      description:
        "The SEO tools over HTTP: MCP at POST /mcp and a REST subset. Every error is {\"error\":{\"code\",\"message\"}}; BYOK headers carry your own provider keys per request.",
      license: { name: "MIT", identifier: "MIT" },
      ...(secured ? { security: { kind: "bearer", description: "GATEWAY_AUTH_TOKEN, as Authorization: Bearer <token>" } } : {}),
    },
    guarded: {
      ...(secured ? { "401": errorDoc("UNAUTHORIZED: no or a wrong Authorization: Bearer token") } : {}),
      "429": {
        ...errorDoc("RATE_LIMITED: too many requests from this client; retry after the given seconds"),
        headers: { "retry-after": "Seconds until the client's window resets" },
      },
    },
    routes,
    mcp: {
      summary: "MCP over stateless Streamable HTTP",
      description:
        "JSON-RPC 2.0 messages of the Model Context Protocol: the five SEO tools (seo_audit_site answers LOCAL_ONLY here). Send Accept: application/json, text/event-stream. A tools/call with a progress token streams as text/event-stream. Other methods answer 405.",
      tags: ["mcp"],
      headers: KEY_HEADERS,
      responses: { "202": { description: "Accepted (a notification)" } },
    },
  };
}
