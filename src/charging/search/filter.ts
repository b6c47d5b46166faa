/**
 * The per-site filters of a search as one row predicate over the snapshot's columns.
 *
 * Connector filters (the `connector` substring, `connectorTypes`, `current`) hold together on
 * one connector: a site matches when one of its connectors passes all of them, so
 * `connectorTypes=tesla&current=DC` finds Superchargers, not destination chargers. The substring
 * and the types are matched once against the distinct connector kinds (type + label pairs, a
 * few hundred at most), not per site.
 *
 * Site filters: minimum power, AVAILABLE (`openOnly`), a set of statuses, a set of access
 * values (`unknown` for a source that does not say), countries and operators (compared as the
 * string ids the reference data resolved them to, so no text is decoded per row).
 * @module
 */
import { Lru } from "../../shared/lru.ts";
import { ApiError } from "../../shared/errors.ts";
import { connectorKind, searchTerms } from "../data/connectors.ts";
import { CURRENT_TYPES, type CurrentType } from "../data/connector-types.ts";
import { ACCESS_VALUES, STATUS_VALUES, type StatusValue } from "../data/model.ts";
import { TEXT_FIELDS } from "../snapshot/format.ts";
import type { Snapshot } from "../snapshot/read.ts";
import type { AccessFilterValue, Vocabulary } from "./reference.ts";
import type { ResolvedStrings } from "./range-counter.ts";
import type { RowFilter } from "./walk.ts";

export interface FilterQuery {
  connector?: string;
  /** Normalised connector types (connector-types.ts); a site needs a connector of one of them. */
  connectorTypes?: readonly string[];
  current?: CurrentType;
  minPower?: number;
  openOnly?: boolean;
  statuses?: readonly StatusValue[];
  access?: readonly AccessFilterValue[];
  /** ISO 3166-1 alpha-2 codes, upper case. */
  countries?: readonly string[];
  /** Operator ids or names from the reference data. */
  operators?: readonly string[];
}

const AVAILABLE = STATUS_VALUES.indexOf("AVAILABLE");
const WIDTH = TEXT_FIELDS.length;
const COUNTRY = TEXT_FIELDS.indexOf("countryCode");
const OPERATOR = TEXT_FIELDS.indexOf("operator");

/** A mask over codes: 1 where the code's value is wanted. */
const maskOf = <T>(values: readonly T[], wanted: readonly T[], shift = 0) => {
  const mask = new Uint8Array(values.length + shift);
  values.forEach((value, i) => {
    if (wanted.includes(value)) mask[i + shift] = 1;
  });
  return mask;
};

/** The string ids the country and operator filters of `q` compare against (an unknown operator is INVALID_ARGUMENTS). */
export function resolveStrings(vocabulary: Vocabulary, q: FilterQuery): ResolvedStrings {
  const strings: ResolvedStrings = {};
  if (q.countries) strings.countries = vocabulary.countryStrings(q.countries);
  if (q.operators) strings.operators = operatorStrings(vocabulary, q.operators);
  return strings;
}

function operatorStrings(vocabulary: Vocabulary, operators: readonly string[]): number[] {
  return operators.flatMap((name) => {
    const strings = vocabulary.operatorStrings(name);
    if (!strings) {
      throw new ApiError(
        "INVALID_ARGUMENTS",
        `operator "${name.slice(0, 100)}" is no operator of this data set; use an id or name from GET /api/v1/reference (operators)`,
      );
    }
    return strings;
  });
}

/** Whether a row's string in `field` is one of `strings` (few: one per spelling asked for). */
const textIn = (text: Uint32Array, field: number, strings: readonly number[]) => {
  if (strings.length === 1) {
    const only = strings[0];
    return (row: number) => text[row * WIDTH + field] === only;
  }
  return (row: number) => strings.includes(text[row * WIDTH + field] as number);
};

/** The store's vocabulary, once loaded; a caller without one filters by neither country nor operator. */
const NO_VOCABULARY = (): Vocabulary => {
  throw new Error("country and operator filters need the store's vocabulary (search/reference.ts)");
};

/** The filters over a snapshot; `vocabulary` resolves countries and operators (the store loads it before it asks). */
/** The connector kinds passing a substring and a type set, as a mask over kinds (kept per pair). */
function kindMasks(snapshot: Snapshot): (needle: string | undefined, types: readonly string[] | undefined) => Uint8Array {
  const terms = snapshot.kinds.map(([type, label]) => searchTerms(type, label));
  const kindTypes = snapshot.kinds.map(([type]) => connectorKind(type).type);
  const masks = new Lru<string, Uint8Array>(256);
  return (needle, types) => {
    const key = `${needle ?? ""}\u0000${types?.join(",") ?? ""}`;
    let mask = masks.get(key);
    if (!mask) {
      mask = Uint8Array.from(terms, (list, kind) => {
        const named = needle === undefined || list.some((t) => t.includes(needle));
        return named && (!types || types.includes(kindTypes[kind] as string)) ? 1 : 0;
      });
      masks.set(key, mask);
    }
    return mask;
  };
}

export function createFilters(snapshot: Snapshot, vocabulary: () => Vocabulary = NO_VOCABULARY): (q: FilterQuery) => RowFilter {
  const kindMask = kindMasks(snapshot);
  const { status, access, maxPower, connectorOffsets, connectorKind: kindOf, connectorCurrent, text } = snapshot;

  const connectorTest = (q: FilterQuery) => {
    const byKind = q.connector || q.connectorTypes;
    if (!byKind && !q.current) return undefined;
    const mask = byKind ? kindMask(q.connector?.toLowerCase(), q.connectorTypes) : undefined;
    const current = q.current ? CURRENT_TYPES.indexOf(q.current) + 1 : 0;
    return (row: number) => {
      const end = connectorOffsets[row + 1] as number;
      for (let c = connectorOffsets[row] as number; c < end; c++) {
        if ((!mask || mask[kindOf[c] as number] === 1) && (!current || connectorCurrent[c] === current)) return true;
      }
      return false;
    };
  };

  const siteTests = (q: FilterQuery) => {
    const tests: ((row: number) => boolean)[] = [];
    const { minPower } = q;
    if (q.openOnly) tests.push((row) => status[row] === AVAILABLE);
    if (minPower !== undefined) tests.push((row) => (maxPower[row] as number) >= minPower);
    if (q.statuses) {
      const mask = maskOf(STATUS_VALUES, q.statuses);
      tests.push((row) => mask[status[row] as number] === 1);
    }
    if (q.access) {
      const mask = maskOf(ACCESS_VALUES, q.access as readonly string[] as typeof ACCESS_VALUES, 1);
      mask[0] = q.access.includes("unknown") ? 1 : 0;
      tests.push((row) => mask[access[row] as number] === 1);
    }
    if (q.countries || q.operators) {
      const { countries, operators } = resolveStrings(vocabulary(), q);
      if (countries) tests.push(textIn(text, COUNTRY, countries));
      if (operators) tests.push(textIn(text, OPERATOR, operators));
    }
    return tests;
  };

  return (q) => {
    const tests = siteTests(q);
    const connectors = connectorTest(q);
    if (connectors) tests.push(connectors);
    if (tests.length === 0) return undefined;
    if (tests.length === 1) return tests[0];
    return (row) => {
      for (const test of tests) if (!test(row)) return false;
      return true;
    };
  };
}
