/**
 * Turns provider answers into provenance-labelled values and per-source status lines, so
 * every tool reports "which source said what, or why it could not" the same way.
 * @module
 */
import {
  fromProvider,
  type Labelled,
  type ProviderId,
  type UnavailableCode,
  unavailable,
} from "../provenance.ts";
import type { ProviderResult } from "./types.ts";

/** A labelled value picked from a provider answer; `noData` explains an empty pick. */
export function labelled<T, U>(
  result: ProviderResult<T>,
  pick: (value: T) => U | undefined,
  noData: string,
): Labelled<U> {
  if (!result.ok) return unavailable<U>(result.reason, result.code);
  const value = pick(result.value);
  return value === undefined
    ? unavailable<U>(noData, "no-data")
    : fromProvider(result.source, value, result.at);
}

/** How one source fared in a tool call. */
export interface SourceStatus {
  source: ProviderId;
  status: "ok" | "unavailable";
  code?: UnavailableCode;
  reason?: string;
  at?: string;
}

export function statusOf(result: ProviderResult<unknown>): SourceStatus {
  return result.ok
    ? { source: result.source, status: "ok", at: result.at }
    : { source: result.source, status: "unavailable", code: result.code, reason: result.reason };
}

/** Keeps the first status per source, preferring a failure (the one the agent must hear about). */
export function mergeStatuses(statuses: readonly SourceStatus[]): SourceStatus[] {
  const bySource = new Map<ProviderId, SourceStatus>();
  for (const s of statuses) {
    const seen = bySource.get(s.source);
    if (!seen || (seen.status === "ok" && s.status === "unavailable")) bySource.set(s.source, s);
  }
  return [...bySource.values()];
}

/** JSON Schema of a SourceStatus list. */
export const SOURCES_SCHEMA = {
  type: "array",
  items: {
    type: "object",
    properties: {
      source: { type: "string" },
      status: { enum: ["ok", "unavailable"] },
      code: { type: "string" },
      reason: { type: "string" },
      at: { type: "string" },
    },
    required: ["source", "status"],
  },
} as const;

/** A one-line rendering of a labelled value for the text an agent reads first. */
export function show<T>(label: Labelled<T>, format: (value: T) => string = String): string {
  const p = label.provenance;
  if (label.value === null)
    return `unavailable (${p.code ?? "unavailable"}: ${p.reason ?? "no reason given"})`;
  const origin = p.source ? `${p.kind}: ${p.source}` : p.kind;
  const at = p.at && /^\d{4}-\d\d-\d\dT/.test(p.at) ? p.at.slice(0, 10) : p.at;
  return `${format(label.value)} [${origin}${at ? ` ${at}` : ""}]`;
}
