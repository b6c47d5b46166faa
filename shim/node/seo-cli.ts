#!/usr/bin/env node
/**
 * Entry of dist/seo.js, the `seo-audit-mcp` bin. It only turns on V8's on-disk compile cache
 * (Node 22.1+) and then loads the command from its own chunk, so from the second start on the
 * bundle is not parsed and compiled again: start-up is the MCP cold start agents wait for.
 * @module
 */
import module from "node:module";

module.enableCompileCache?.();
const { run } = await import("./seo-main.ts");
await run();
