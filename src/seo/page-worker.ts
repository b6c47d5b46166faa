/**
 * The SEO service's entry for a thread that parses pages for a crawl (the Node shim's page
 * worker): only the streaming extractor, so the thread loads htmlparser2 and nothing else.
 * @module
 */
export { HtmlExtractor } from "./audit/extract.ts";
