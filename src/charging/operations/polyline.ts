/**
 * Google's encoded polyline (precision 5, latitude first), decoded with every fault named:
 * a character outside `?`..`~`, a value cut off at the end, a latitude without its longitude,
 * a value too long for precision 5, a point outside WGS84's ranges. @mapbox/polyline 1.2.1
 * decodes valid strings alike but has no checks: a space or a string cut off decodes as some
 * other route without a word, and a route search must not answer for a route nobody sent.
 * Tested on Google's documented example and on round trips through `encodePolyline`, which the
 * map page uses for a route drawn by clicks.
 * @module
 */
import type { LonLat } from "../search/route.ts";

const FIRST = 63; // "?"
const LAST = 126; // "~"
/** Precision 5: 1e5 units per degree; |180°| is 18,000,000 units, 25 bits and the sign: six 5-bit chunks. */
const SCALE = 1e5;
const MAX_CHUNKS = 6;

type Decoded = { points: LonLat[] } | { error: string };

/** The points of `text` (as `[lon, lat]`), or what is wrong with it; stops past `maxPoints`. */
export function decodePolyline(text: string, maxPoints: number): Decoded {
  const values: number[] = [];
  const points: LonLat[] = [];
  let lat = 0;
  let lon = 0;
  let at = 0;
  while (at < text.length) {
    let result = 0;
    let chunks = 0;
    let chunk: number;
    const start = at;
    do {
      if (at >= text.length) return { error: `polyline ends inside a value (from character ${start + 1}); it was cut off` };
      const code = text.charCodeAt(at);
      if (code < FIRST || code > LAST) {
        return { error: `polyline has ${JSON.stringify(text[at])} at character ${at + 1}; an encoded polyline uses only the characters ? to ~ (percent-encode it in a URL)` };
      }
      if (++chunks > MAX_CHUNKS) return { error: `polyline value at character ${start + 1} is too long for precision 5` };
      chunk = code - FIRST;
      result += (chunk & 0x1f) * 2 ** (5 * (chunks - 1));
      at++;
    } while (chunk >= 0x20);
    values.push(result % 2 === 1 ? -(result + 1) / 2 : result / 2);
    if (values.length < 2) continue;
    lat += values[0] as number;
    lon += values[1] as number;
    values.length = 0;
    const point: LonLat = [lon / SCALE, lat / SCALE];
    if (Math.abs(point[1]) > 90 || Math.abs(point[0]) > 180) {
      return { error: `polyline point ${points.length + 1} decodes to lat ${point[1]}, lon ${point[0]}, outside -90..90 / -180..180; this API reads precision 5 (1e5), is it another precision?` };
    }
    if (points.length === maxPoints) return { error: `route has more than ${maxPoints} points; simplify it` };
    points.push(point);
  }
  if (values.length === 1) return { error: "polyline ends after a latitude without its longitude; it was cut off" };
  return { points };
}

/** Google's encoding (precision 5, latitude first) of `points` given as `[lon, lat]`. */
export function encodePolyline(points: readonly LonLat[]): string {
  let out = "";
  const push = (delta: number) => {
    let rest = delta < 0 ? ~(delta << 1) : delta << 1;
    for (; rest >= 0x20; rest >>= 5) out += String.fromCharCode((0x20 | (rest & 0x1f)) + FIRST);
    out += String.fromCharCode(rest + FIRST);
  };
  let [lastLat, lastLon] = [0, 0];
  for (const [lon, lat] of points) {
    const [scaledLat, scaledLon] = [Math.round(lat * SCALE), Math.round(lon * SCALE)];
    push(scaledLat - lastLat);
    push(scaledLon - lastLon);
    [lastLat, lastLon] = [scaledLat, scaledLon];
  }
  return out;
}
