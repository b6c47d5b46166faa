/**
 * Entry of dist/seo-gateway.js: the SEO gateway as a Cloudflare Worker (ES module, no `node:`
 * imports; `wrangler.toml` at the repository root deploys it). Vars and secrets arrive as
 * `env`: the SEO_* keys and endpoints (the fallback for requests without BYOK headers) and
 * the GATEWAY_* settings. No crawl capability (seo_audit_site answers LOCAL_ONLY), no DNS
 * API (the egress guard judges names by name), and the client is `cf-connecting-ip`.
 * @module
 */
import {
  sleep,
  createSeoHandler,
  errorResponse,
  type FetchHandler,
  loadSeoConfig,
  parseGatewayEnv,
  preloadSeoCode,
} from "../../src/seo/mod.ts";

type Env = Record<string, unknown>;

interface Built {
  env: Env;
  handler?: FetchHandler;
  /** Why the configuration cannot be used (names the variable, never its value). */
  problem?: string;
}

let built: Built | undefined;

const log = (line: string) => console.error(`seo-gateway: ${line}`);

// While the Worker starts (its global scope has a 1 s allowance), not in the first request's
// CPU time (10 ms on the free plan).
preloadSeoCode().catch((err: unknown) => log(`preload failed: ${err instanceof Error ? err.message : String(err)}`));

function stringVars(env: Env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

// One handler per isolate: its rate-limit windows and provider caches live as long as it does.
function build(env: Env): Built {
  const vars = stringVars(env);
  try {
    const settings = parseGatewayEnv(vars);
    const config = loadSeoConfig({ env: vars, warn: log });
    const handler = createSeoHandler({
      // Workers' fetch must be called as a global, not as a method of another object.
      provider: { fetch: (input, init) => fetch(input, init), now: () => new Date(), sleep },
      config,
      egress: {},
      ...settings,
      log,
    });
    return { env, handler };
  } catch (err) {
    const problem = err instanceof Error ? err.message : String(err);
    log(`configuration refused: ${problem}`);
    return { env, problem };
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (built?.env !== env) built = build(env);
    if (!built.handler) {
      return errorResponse("INTERNAL", `The gateway is misconfigured; its operator must fix: ${built.problem}`);
    }
    const clientAddress = request.headers.get("cf-connecting-ip") ?? undefined;
    return built.handler(request, clientAddress ? { clientAddress } : {});
  },
};
