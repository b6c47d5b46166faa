/**
 * The closed vocabularies of the exact connector filters: `connectorType` (the slugs of
 * connectors.ts) and `current` (AC, DC). Users type the names they know ("Type 1", "SAE
 * J1772", "Type-2", "Mennekes", "CCS", "Tesla"): each word is folded (lower case, spaces,
 * hyphens, underscores, slashes, dots and brackets dropped) and looked up among every slug,
 * vocabulary name, OCPI name, OSM socket key and alias; one word may name several types
 * ("ccs" is ccs1 and ccs2).
 * @module
 */
import { CONNECTOR_KINDS } from "./connectors.ts";

/** The normalised connector types, as `Connector.type` carries them. */
export const CONNECTOR_TYPES: readonly string[] = CONNECTOR_KINDS.map((k) => k.type);

export const CURRENT_TYPES = ["AC", "DC"] as const;
export type CurrentType = (typeof CURRENT_TYPES)[number];

/** Words users type that the vocabulary does not list itself. */
const EXTRA_WORDS: Readonly<Record<string, readonly string[]>> = {
  "sae j1772": ["type1"],
  "j-plug": ["type1"],
  "iec 62196 type 2": ["type2"],
  "ccs combo": ["ccs1", "ccs2"],
  "ccs type 1": ["ccs1"],
  "ccs type 2": ["ccs2"],
  "tesla supercharger": ["tesla"],
  "gbt": ["gbt_ac", "gbt_dc"],
  "type f": ["schuko"],
  "type g": ["bs1363"],
};

/** A word folded for lookup: "SAE J1772" and "sae-j1772" read alike. */
const foldWord = (word: string) => word.toLowerCase().replace(/[\s\-_/.()]+/g, "");

function wordIndex(): Map<string, string[]> {
  const index = new Map<string, string[]>();
  const add = (word: string, type: string) => {
    const key = foldWord(word);
    const types = index.get(key) ?? [];
    if (!types.includes(type)) types.push(type);
    index.set(key, types);
  };
  for (const k of CONNECTOR_KINDS) {
    for (const word of [k.name, ...k.ocpi, ...k.osmKeys, ...k.aliases]) add(word, k.type);
  }
  for (const [word, types] of Object.entries(EXTRA_WORDS)) for (const type of types) add(word, type);
  // A slug names exactly its own type ("tesla" is not also a NACS alias).
  for (const type of CONNECTOR_TYPES) index.set(foldWord(type), [type]);
  return index;
}

const WORDS = wordIndex();

/** The types a word a user typed names; undefined when it names none. */
export function connectorTypesOf(word: string): string[] | undefined {
  const types = WORDS.get(foldWord(word));
  return types ? [...types] : undefined;
}
