/**
 * MongoDB extended JSON, as mongoexport writes OCM's cache (`ocm-poi-mongoexport-*.jsonl.gz`).
 * @module
 */

/**
 * Extended JSON to plain JSON: `{"$date": x}` -> x, `{"$numberInt"|"$numberLong"|
 * "$numberDouble": "n"}` -> n, `{"$oid": x}` -> x, and `_id` dropped.
 */
export function unwrapExtendedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapExtendedJson);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  if (entries.length === 1) {
    const [key, inner] = entries[0] as [string, unknown];
    if (key === "$date") return typeof inner === "object" ? unwrapExtendedJson(inner) : inner;
    if (key === "$numberInt" || key === "$numberLong" || key === "$numberDouble") return Number(inner);
    if (key === "$oid") return inner;
  }
  const out: Record<string, unknown> = {};
  for (const [key, inner] of entries) if (key !== "_id") out[key] = unwrapExtendedJson(inner);
  return out;
}
