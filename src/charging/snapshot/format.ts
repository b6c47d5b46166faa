/**
 * The binary data-set snapshot (`charging-snapshot/1`): what the server maps at start-up
 * instead of parsing JSON. Little-endian throughout; the full layout is in DATA.md.
 *
 * ```
 * 0    8   magic "CHGSNAP\0"
 * 8    4   version (u32, 1)
 * 12   4   section count k (u32)
 * 16   16k directory: tag (4 ASCII bytes), offset (u32), byte length (u32), CRC-32 (u32)
 * ...      sections, each starting on an 8-byte boundary
 * ```
 * Sites are stored in id order (source, OSM element type, numeric id), one column per field;
 * text lives once in a string table; connectors are rows of their own, sliced per site by
 * an offsets column; the spatial index is kdbush's own serialised buffer.
 * @module
 */

export const SNAPSHOT_MAGIC = "CHGSNAP\0";
export const SNAPSHOT_VERSION = 1;
export const SNAPSHOT_FORMAT = "charging-snapshot/1";
export const DIRECTORY_ENTRY_BYTES = 16;
export const PREAMBLE_BYTES = 16;
/** A string id meaning "no value". */
export const NO_STRING = 0xffffffff;
/** kdbush node size of the prebuilt index. */
export const INDEX_NODE_SIZE = 64;

/** Per-site text fields, in the order of the TEXT section's rows. */
export const TEXT_FIELDS = [
  "name",
  "line1",
  "line2",
  "town",
  "region",
  "postcode",
  "countryCode",
  "operator",
  "network",
  "usageCost",
  "openingHours",
  "lastUpdated",
] as const;

/** Id kinds in id order: `ocm:<n>`, then `osm:node/<n>`, `osm:way/<n>`, `osm:relation/<n>`. */
export const ID_KINDS = ["ocm:", "osm:node/", "osm:way/", "osm:relation/"] as const;

/** Sections: tag, element byte size (0 = bytes of any length), and what one element counts. */
export const SECTIONS = {
  HEAD: { bytes: 1, per: "any" },
  KIND: { bytes: 1, per: "site" },
  NUMB: { bytes: 8, per: "site" },
  LATS: { bytes: 8, per: "site" },
  LONS: { bytes: 8, per: "site" },
  TEXT: { bytes: 4 * TEXT_FIELDS.length, per: "site" },
  PART: { bytes: 2, per: "site" },
  STAT: { bytes: 1, per: "site" },
  ACCS: { bytes: 1, per: "site" },
  FEES: { bytes: 1, per: "site" },
  CAPY: { bytes: 4, per: "site" },
  MAXP: { bytes: 8, per: "site" },
  CONO: { bytes: 4, per: "site+1" },
  CKND: { bytes: 4, per: "connector" },
  CPOW: { bytes: 8, per: "connector" },
  CQTY: { bytes: 4, per: "connector" },
  CCUR: { bytes: 1, per: "connector" },
  STRO: { bytes: 4, per: "string+1" },
  STRB: { bytes: 1, per: "any" },
  KDBX: { bytes: 1, per: "any" },
} as const;
export type SectionTag = keyof typeof SECTIONS;
export const SECTION_TAGS = Object.keys(SECTIONS) as SectionTag[];

/** What `HEAD` holds (UTF-8 JSON): the data-set header plus the counts the columns are checked against. */
export interface SnapshotHead {
  format: typeof SNAPSHOT_FORMAT;
  /** The data-set header (`charging-sites/1`): import time, sources, partitions, counts. */
  dataset: unknown;
  sites: number;
  connectors: number;
  strings: number;
  /** Distinct connector `[type, label]` pairs; CKND points into this list. */
  kinds: [string, string][];
}

export const align8 = (n: number) => (n + 7) & ~7;
