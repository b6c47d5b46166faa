/**
 * puppeteer-core, for the SEO audit's rendering mode on Node (shim/node/seo/render-browser.ts)
 * only: it drives a Chromium already on the machine and downloads none. Imported on the first
 * rendering audit, never at start-up; src/ never imports this file.
 * @module
 */
export { default as puppeteer } from "puppeteer-core";
export type { Browser, BrowserContext, HTTPRequest, Page } from "puppeteer-core";
