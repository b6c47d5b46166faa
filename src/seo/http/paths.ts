/**
 * The gateway's REST routes, known to the router before the tools (whose `rest` faces answer
 * them) are loaded: start-up loads no tool. A tool's REST face names its path from here;
 * tests/seo/http/rest.test.ts checks the two agree.
 * @module
 */

/** Each route's path and the parameter it requires, as the no-route message shows it (`GET /api/v1/page-report?url=`). */
export const REST_ROUTES = {
  pageReport: { path: "/api/v1/page-report", required: "url" },
  keywordIdeas: { path: "/api/v1/keyword-ideas", required: "q" },
} as const;
