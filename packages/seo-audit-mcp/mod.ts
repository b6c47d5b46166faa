/**
 * Library entry of the seo-audit-mcp package (built to dist/seo-lib.js with its declarations):
 * the SEO Fetch handler and its configuration, the five tools, the audit, and the shared
 * building blocks.
 * No side effects on import.
 * @module
 */
export * from "../../src/shared/mod.ts";
export * from "../../src/seo/mod.ts";
export { crawlAndAudit } from "../../src/seo/audit/crawl-and-audit.ts";
export { createSeoTools } from "../../src/seo/tools/mod.ts";
