/**
 * What the map page reads from the API: the answers' shapes and one way to fetch them.
 * @module
 */
import type { Attribution, Site } from "../../../src/charging/data/model.ts";

// The answers' sites are the API's own type: the page reads a part of each.
export type { Attribution, Connector, Site } from "../../../src/charging/data/model.ts";

/** A position as `[longitude, latitude]`, as MapLibre and GeoJSON take it. */
export type LonLat = [number, number];

export interface SitesAnswer {
  data: Site[];
  page: { limit: number; offset: number; total: number };
  attribution: Attribution[];
}

export interface StatusAnswer {
  data: { status: string; kind: string; retrievedAt: string; stale: boolean; staleReason?: string; attribution: Attribution };
}

export interface QueryParameter {
  name: string;
  in: string;
  description?: string;
  schema?: { type?: string; enum?: string[]; minimum?: number; maximum?: number };
}

/** One page of the largest size the API gives: the clusters are made from it. */
export const PAGE = "100";
/** Longer search URLs are not sent (Node refuses request heads over 16 KiB). */
export const MAX_URL = 12_000;

/** An API answer's JSON, or an Error carrying its `CODE: message`. */
export async function getJson<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, init);
  const body = (await response.json()) as T & { error?: { code: string; message: string } };
  if (!response.ok) throw new Error(body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`);
  return body;
}
