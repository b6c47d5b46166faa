/**
 * Entry of the page worker (dist/seo-page-worker.js): a thread that parses the pages of a crawl
 * (`page-answers.ts` says the messages) so the crawl's thread only fetches, follows links and
 * keeps the audit.
 * @module
 */
import { parentPort } from "node:worker_threads";
import { answerPagesOn } from "./page-answers.ts";

if (parentPort) answerPagesOn(parentPort);
