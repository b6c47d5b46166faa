/**
 * Admission to the answer caches on a key's second request. Map pans ask a new box each
 * time: keeping every answer (some 14 KB of bytes and its key) only for it to be pushed out
 * unread a few hundred answers later made the collector promote and then sweep each one, a
 * quarter of a distinct search's CPU in the Node server. A key is remembered as its 32-bit
 * hash in a fixed table, nothing allocated per request: a key asked again is recognised
 * unless a later key took its slot meanwhile (then it waits for one more request), and two
 * keys sharing a hash only admit an answer one request early.
 * @module
 */
import { fnv1a32 } from "./conditional.ts";

/** Slots of the table as a power of two: 8,192 hashes, 32 KB. */
const SLOT_BITS = 13;

/** True when `key` was seen before (and not forgotten since); remembers it either way. */
export type SecondSight = (key: string) => boolean;

export function createSecondSight(slotBits = SLOT_BITS): SecondSight {
  const seen = new Uint32Array(1 << slotBits);
  const mask = seen.length - 1;
  return (key) => {
    // 0 marks an empty slot, so a key hashing to 0 is remembered as 1.
    const hash = fnv1a32(key) || 1;
    const slot = (hash ^ (hash >>> slotBits)) & mask;
    if (seen[slot] === hash) return true;
    seen[slot] = hash;
    return false;
  };
}
