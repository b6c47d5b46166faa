/**
 * OSM `capacity` (how many vehicles can charge at once) as written in the wild: plain
 * integers, but also "2 x 22 kW", "2 Cars", "charging=2", "３" or "3;22". Only a vehicle count
 * the text states unambiguously is read; power figures, amps, volts, ranges, approximations
 * and multi-value lists are unknown (null), never a guess: "unknown" is not "zero".
 * @module
 */

const VEHICLE_WORDS = /^(cars?|vehicles?|autos?|auto's|fahrzeuge|stellpl(ä|ae)tze|plätze|evs?)$/i;
const NON_CAR = /capacity:(bike|bicycle|scooter|motorcycle|truck|hgv|bus)/i;
const ELECTRIC_UNIT = /\d\s*(kw|kva|w|a|v|volt|amp|ph)\b/i;

/** Vehicles that can charge at once, or null when the tag does not say so unambiguously. */
export function parseCapacity(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const text = raw.normalize("NFKC").trim();
  if (/^\d+$/.test(text)) return count(text);
  if (NON_CAR.test(text)) return null;
  const keyed = /^(?:capacity:)?(?:car|cars|charging|motorcar)\s*=\s*(\d+)$/i.exec(text);
  if (keyed) return count(keyed[1] as string);
  const worded = /^(\d+)\s+(\S+)$/.exec(text);
  if (worded && VEHICLE_WORDS.test(worded[2] as string)) return count(worded[1] as string);
  if (text.includes(";")) return fromList(text);
  return fromMultipliers(text);
}

function count(digits: string): number | null {
  const n = Number(digits);
  return Number.isSafeInteger(n) && n > 0 && n <= 10_000 ? n : null;
}

/** "2;max. 26,6 kW": one plain count among power figures; two counts ("3;22") are ambiguous. */
function fromList(text: string): number | null {
  const parts = text.split(";").map((p) => p.trim());
  const counts = parts.filter((p) => /^\d+$/.test(p));
  const rest = parts.filter((p) => !/^\d+$/.test(p));
  if (counts.length !== 1 || !rest.every((p) => ELECTRIC_UNIT.test(p))) return null;
  return count(counts[0] as string);
}

/**
 * "2 x 22 kW", "2x Typ2 (22 kW)", "(3 x Typ 2 Dose, 2 x Schuko)": the multipliers count plugs,
 * summed over the comma-separated parts; only when every part starts with one and names
 * something after it ("3x2" is ambiguous).
 */
function fromMultipliers(text: string): number | null {
  const unwrapped = text.replace(/^\((.*)\)$/, "$1").replace(/\([^)]*\)/g, " ");
  const parts = unwrapped
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  let total = 0;
  for (const part of parts) {
    const m = /^(\d+)\s*[x×*]\s*(\S.*)$/i.exec(part);
    if (!m || /^\d+$/.test((m[2] as string).trim())) return null;
    total += Number(m[1]);
  }
  return parts.length > 0 ? count(String(total)) : null;
}
