/**
 * The SEO tool table: every tool the server registers, built from injected dependencies.
 * @module
 */
import type { ToolDef } from "../../shared/mcp/tool.ts";
import type { SeoConfig } from "../config.ts";
import type { RankStore } from "../providers/tranco.ts";
import type { ProviderDeps } from "../providers/types.ts";
import { createAuthorityTool } from "./authority.ts";
import { createKeywordIdeasTool } from "./keyword-ideas.ts";
import { createRankCheckTool } from "./rank-check.ts";

export interface SeoToolDeps {
  provider: ProviderDeps;
  config: SeoConfig;
  /** Persistent Tranco answers (the Node shim keeps them on disk); optional. */
  rankStore?: RankStore;
  log(line: string): void;
}

export function createSeoTools(deps: SeoToolDeps): ToolDef[] {
  return [createKeywordIdeasTool(deps), createRankCheckTool(deps), createAuthorityTool(deps)];
}
