/** The page's fixed elements and settings, what it is showing, and DOM helpers that insert text only. */
import type { LonLat } from "./api.ts";

/** A route to search along: the query parameter carrying it, and its points when the page can read them. */
export interface RouteAsked {
  param: "polyline" | "geojson";
  value: string;
  points: LonLat[];
}

/** What the list shows: the view's sites (searched on every move) or a route's. */
export const state: { route?: RouteAsked; drawing: boolean; drawn: LonLat[] } = { drawing: false, drawn: [] };

export const settings = document.body.dataset;
export const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
export const form = byId<HTMLFormElement>("filters");
export const summary = byId<HTMLParagraphElement>("summary");
export const results = byId<HTMLOListElement>("results");
export const detail = byId<HTMLElement>("detail");

export function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A link when `url` is http(s), else the text alone. */
export function link(text: string, url: string | undefined): HTMLElement {
  if (!url || !/^https?:\/\//i.test(url)) return element("span", text);
  const a = element("a", text);
  a.href = url;
  a.rel = "noopener noreferrer";
  a.target = "_blank";
  return a;
}
