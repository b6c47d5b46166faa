/**
 * The per-site filters of a search (connector, minimum power, AVAILABLE) as one row
 * predicate over the snapshot's columns. A connector needle is matched once against the
 * distinct connector kinds (type + label pairs, a few hundred at most), not per site; a site
 * matches when one of its connectors is of a matching kind.
 * @module
 */
import { Lru } from "../../shared/lru.ts";
import { searchTerms } from "../data/connectors.ts";
import { STATUS_VALUES } from "../data/model.ts";
import type { Snapshot } from "../snapshot/read.ts";
import type { RowFilter } from "./walk.ts";

export interface FilterQuery {
  connector?: string;
  minPower?: number;
  openOnly?: boolean;
}

const AVAILABLE = STATUS_VALUES.indexOf("AVAILABLE");

export function createFilters(snapshot: Snapshot): (q: FilterQuery) => RowFilter {
  const terms = snapshot.kinds.map(([type, label]) => searchTerms(type, label));
  const matches = new Lru<string, Uint8Array>(256);
  const kindMatch = (needle: string): Uint8Array => {
    let match = matches.get(needle);
    if (!match) {
      match = Uint8Array.from(terms, (list) => (list.some((t) => t.includes(needle)) ? 1 : 0));
      matches.set(needle, match);
    }
    return match;
  };
  const { status, maxPower, connectorOffsets, connectorKind } = snapshot;

  return (q) => {
    const match = q.connector ? kindMatch(q.connector.toLowerCase()) : undefined;
    const { minPower, openOnly } = q;
    if (!match && minPower === undefined && !openOnly) return undefined;
    const hasKind = (row: number) => {
      const end = connectorOffsets[row + 1] as number;
      for (let c = connectorOffsets[row] as number; c < end; c++) if (match?.[connectorKind[c] as number] === 1) return true;
      return false;
    };
    return (row) =>
      (!openOnly || status[row] === AVAILABLE) &&
      (minPower === undefined || (maxPower[row] as number) >= minPower) &&
      (!match || hasKind(row));
  };
}
