/** Test helper: encoding routes as polylines. */
import type { LonLat } from "../../../src/charging/search/route.ts";

/** Google's reference encoder (precision 5), written from the algorithm's description. */
export function encodePolyline(points: readonly LonLat[]): string {
  let out = "";
  let lastLat = 0;
  let lastLon = 0;
  const value = (v: number) => {
    let n = v < 0 ? ~(v << 1) : v << 1;
    while (n >= 0x20) {
      out += String.fromCharCode((0x20 | (n & 0x1f)) + 63);
      n >>= 5;
    }
    out += String.fromCharCode(n + 63);
  };
  for (const [lon, lat] of points) {
    const la = Math.round(lat * 1e5);
    const lo = Math.round(lon * 1e5);
    value(la - lastLat);
    value(lo - lastLon);
    lastLat = la;
    lastLon = lo;
  }
  return out;
}
