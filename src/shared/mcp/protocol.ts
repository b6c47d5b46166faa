/**
 * The MCP protocol versions a server negotiates, as the SDK's `Server` does it. Kept here so
 * answering `initialize` does not load the SDK; tests/shared/mcp/http.test.ts holds these
 * equal to the SDK's own list.
 * @module
 */

export const LATEST_PROTOCOL_VERSION = "2025-11-25";
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  LATEST_PROTOCOL_VERSION,
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];

/** The version to answer a client that asks for `requested`. */
export const negotiateVersion = (requested: string): string =>
  SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
