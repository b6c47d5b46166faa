/**
 * The reference data of a snapshot: every value the exact filters take (connector types,
 * currents, operators, countries, access, statuses), each with how many sites have it, and
 * the string ids a country or operator filter compares against. Operators have no id in the
 * open data: an operator's id is its name folded into a slug (`ChargePoint` -> `chargepoint`),
 * and names that fold alike (`IONITY`, `Ionity`) are one operator, named by their commonest
 * spelling. Counted in one paced pass over the columns the first time something asks (some
 * 100 ms of CPU at a million sites), then kept: the snapshot never changes under a store.
 * @module
 */
import { connectorKind } from "../data/connectors.ts";
import { CONNECTOR_TYPES, CURRENT_TYPES } from "../data/connector-types.ts";
import { ACCESS_VALUES, STATUS_VALUES } from "../data/model.ts";
import { NO_STRING, TEXT_FIELDS } from "../snapshot/format.ts";
import type { Snapshot } from "../snapshot/read.ts";
import type { Pacer } from "./pacer.ts";

/** The access filter's value for a site whose source does not say. */
const UNKNOWN_ACCESS = "unknown";
export const ACCESS_FILTER_VALUES = [...ACCESS_VALUES, UNKNOWN_ACCESS] as const;
export type AccessFilterValue = (typeof ACCESS_FILTER_VALUES)[number];

export interface Reference {
  connectorTypes: { type: string; name: string; current: "AC" | "DC" | null; count: number }[];
  currentTypes: { current: "AC" | "DC"; count: number }[];
  operators: { id: string; name: string; count: number }[];
  countries: { code: string; count: number }[];
  access: { value: AccessFilterValue; count: number }[];
  statuses: { value: (typeof STATUS_VALUES)[number]; count: number }[];
}

export interface Vocabulary {
  reference: Reference;
  /** String ids of the country codes (upper case) held; unknown codes give none. */
  countryStrings(codes: readonly string[]): number[];
  /** String ids of an operator given by id or name; undefined when no operator has it. */
  operatorStrings(idOrName: string): number[] | undefined;
}

const COUNTRY = TEXT_FIELDS.indexOf("countryCode");
const OPERATOR = TEXT_FIELDS.indexOf("operator");
const WIDTH = TEXT_FIELDS.length;

/** An operator's id: its name in lower case, runs of anything but letters and digits as one hyphen. */
export function operatorId(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  return slug || "operator";
}

/** How many rows hold each string id of one text field. */
async function countStrings(s: Snapshot, field: number, pacer: Pacer): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (let row = 0; row < s.size; row++) {
    if (pacer.due()) await pacer.pause();
    const id = s.text[row * WIDTH + field] as number;
    if (id !== NO_STRING) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

function countCodes(values: Uint8Array, size: number): number[] {
  const counts = new Array<number>(size).fill(0);
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** Sites per connector type and per current (a site counts once for each it has). */
async function countConnectors(s: Snapshot, pacer: Pacer) {
  const typeOfKind = s.kinds.map(([type]) => Math.max(0, CONNECTOR_TYPES.indexOf(connectorKind(type).type)));
  const types = new Array<number>(CONNECTOR_TYPES.length).fill(0);
  const currents = [0, 0, 0];
  const seen = new Int32Array(CONNECTOR_TYPES.length).fill(-1);
  const seenCurrent = new Int32Array(3).fill(-1);
  for (let row = 0; row < s.size; row++) {
    if (pacer.due()) await pacer.pause();
    for (let c = s.connectorOffsets[row] as number; c < (s.connectorOffsets[row + 1] as number); c++) {
      const type = typeOfKind[s.connectorKind[c] as number] as number;
      if (seen[type] !== row) {
        seen[type] = row;
        types[type] = (types[type] as number) + 1;
      }
      const current = s.connectorCurrent[c] as number;
      if (seenCurrent[current] !== row) {
        seenCurrent[current] = row;
        currents[current] = (currents[current] as number) + 1;
      }
    }
  }
  return { types, currents };
}

export async function createVocabulary(s: Snapshot, text: (id: number) => string, pacer: Pacer): Promise<Vocabulary> {
  const countries = new Map<string, { count: number; strings: number[] }>();
  for (const [id, count] of await countStrings(s, COUNTRY, pacer)) {
    const code = text(id).toUpperCase();
    const entry = countries.get(code) ?? { count: 0, strings: [] };
    entry.count += count;
    entry.strings.push(id);
    countries.set(code, entry);
  }
  const operators = new Map<string, { count: number; strings: number[]; names: Map<string, number> }>();
  for (const [sid, count] of await countStrings(s, OPERATOR, pacer)) {
    const name = text(sid);
    const id = operatorId(name);
    const entry = operators.get(id) ?? { count: 0, strings: [], names: new Map<string, number>() };
    entry.count += count;
    entry.strings.push(sid);
    entry.names.set(name, (entry.names.get(name) ?? 0) + count);
    operators.set(id, entry);
  }
  const access = countCodes(s.access, ACCESS_VALUES.length + 1);
  const statuses = countCodes(s.status, STATUS_VALUES.length);
  const connectors = await countConnectors(s, pacer);
  const byCount = <T extends { count: number }>(a: T, b: T) => b.count - a.count;
  const reference: Reference = {
    connectorTypes: CONNECTOR_TYPES.map((type, i) => {
      const k = connectorKind(type);
      return { type, name: k.name, current: k.current, count: connectors.types[i] as number };
    }),
    currentTypes: CURRENT_TYPES.map((current, i) => ({ current, count: connectors.currents[i + 1] as number })),
    operators: [...operators]
      .map(([id, e]) => ({ id, name: [...e.names].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? id, count: e.count }))
      .sort((a, b) => byCount(a, b) || (a.id < b.id ? -1 : 1)),
    countries: [...countries]
      .map(([code, e]) => ({ code, count: e.count }))
      .sort((a, b) => byCount(a, b) || (a.code < b.code ? -1 : 1)),
    access: [
      ...ACCESS_VALUES.map((value, i) => ({ value, count: access[i + 1] as number })),
      { value: UNKNOWN_ACCESS, count: access[0] as number },
    ],
    statuses: STATUS_VALUES.map((value, i) => ({ value, count: statuses[i] as number })),
  };
  return {
    reference,
    countryStrings: (codes) => codes.flatMap((code) => countries.get(code)?.strings ?? []),
    operatorStrings: (idOrName) => operators.get(operatorId(idOrName))?.strings,
  };
}
