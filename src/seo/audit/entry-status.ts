/**
 * How an entry's outcome reads in the evidence of several checks.
 * @module
 */
import type { UrlEntry } from "../crawl/frontier.ts";

export const statusText = (e: UrlEntry): string => (e.status ? `status ${e.status}` : (e.error ?? "no response"));
