/**
 * The reference and data-set operations' pieces: their texts, their (empty) input and the
 * data-set answer. Both are REST routes and MCP resources, not tools (the spec fixes four).
 * @module
 */
import { v } from "../../../deps.ts";
import type { Store } from "../search/store.ts";

/** Neither takes an argument (a query parameter is refused). */
export const NoQuery = v.strictObject({});

export const REFERENCE_DESCRIPTION =
  "Every value the exact search filters take, each with how many sites of the loaded data set have it: connector types (connectorType), currents (current), operators with their ids (operator), ISO country codes (country), access values (access) and statuses (status). Agents read it as the MCP resource charging://reference.";

export const DATASET_DESCRIPTION =
  "The loaded data set: the snapshot's id (what entity tags are built on), when it was imported, its sources (partitions by provider and licence, with counts and credit lines) and the files the import read. Last-Modified on every cacheable answer is this import time. Agents read it as the MCP resource charging://dataset.";

/** The data-set answer of a store. */
export function datasetOf({ version, header, size }: Store) {
  return {
    id: version,
    importedAt: header.importedAt,
    sites: size,
    sources: header.partitions,
    files: header.sources,
  };
}
