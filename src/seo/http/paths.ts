/**
 * The gateway's REST paths, known to the router before the route code (and the tools behind
 * it) is loaded.
 * @module
 */
export const REST_PATHS = {
  pageReport: "/api/v1/page-report",
  keywordIdeas: "/api/v1/keyword-ideas",
} as const;
