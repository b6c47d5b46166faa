/**
 * htmlparser2, the page parser of the SEO audit. Kept out of deps.ts for the page worker's sake
 * (shim/node/seo/page-worker.ts): a bundle evaluates every package a re-exporting module names,
 * so through deps.ts that thread would load the whole dependency set to parse HTML.
 * @module
 */
export { Parser as HtmlParser } from "htmlparser2";
