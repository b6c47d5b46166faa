/**
 * The gateway's REST paths and the parameter each requires, known to the router before the
 * tools (whose `rest` faces answer them) are loaded: start-up loads no tool. A tool's REST face
 * names its path from here; tests/seo/http/rest.test.ts checks the two agree.
 * @module
 */
export const REST_PATHS = {
  pageReport: "/api/v1/page-report",
  keywordIdeas: "/api/v1/keyword-ideas",
} as const;

/** The parameter each path requires, as the no-route message shows it (`GET /api/v1/page-report?url=`). */
export const REST_REQUIRED: Readonly<Record<(typeof REST_PATHS)[keyof typeof REST_PATHS], string>> = {
  [REST_PATHS.pageReport]: "url",
  [REST_PATHS.keywordIdeas]: "q",
};
