/**
 * Reading the signals a page gives about itself: robots directives (meta tags and the
 * X-Robots-Tag header, including user-agent-prefixed forms), canonical URLs from HTML and the
 * Link header, and language codes.
 * @module
 */

/** Directives from `meta[name=robots|googlebot]` contents and X-Robots-Tag header values. */
export function robotsDirectives(values: string[]): Set<string> {
  const out = new Set<string>();
  for (const value of values) {
    // "googlebot: noindex, nofollow" names the agent first; the directives follow the colon.
    const body =
      /^\s*[a-z_-]+\s*:\s*(?!\/\/)/i.test(value) && !/^\s*(max-|unavailable_after)/i.test(value)
        ? value.slice(value.indexOf(":") + 1)
        : value;
    for (const part of body.split(",")) {
      const directive = part.trim().toLowerCase();
      if (directive === "none") {
        out.add("noindex");
        out.add("nofollow");
      } else if (directive) out.add(directive.split(":")[0]?.trim() ?? directive);
    }
  }
  return out;
}

/** Targets of `Link: <url>; rel="canonical"` header entries. */
export function canonicalsFromLinkHeader(header: string | null): string[] {
  if (!header) return [];
  const out: string[] = [];
  for (const match of header.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]*)*)/g)) {
    if (/;\s*rel\s*=\s*"?[^";,]*\bcanonical\b/i.test(match[2] ?? "")) out.push(match[1] ?? "");
  }
  return out;
}

// ISO 639-1 two-letter codes: hreflang requires these (Google's localized-versions doc).
const ISO_639_1 = new Set(
  "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu".split(
    " ",
  ),
);

// ISO 3166-1 alpha-2 codes assigned to countries and territories: hreflang regions must be one
// (Google's localized-versions doc); UK, EU, user-assigned codes (AA, QM-QZ, XA-XZ, ZZ) are not.
const ISO_3166_1 = new Set(
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW".split(
    " ",
  ),
);

/** hreflang value: x-default, or ISO 639-1 language with optional script and an ISO 3166-1 (or UN M.49) region. */
export function isValidHreflang(code: string): boolean {
  if (code.toLowerCase() === "x-default") return true;
  const match = /^([a-z]{2})(?:-([a-z]{4}))?(?:-([a-z]{2}|\d{3}))?$/i.exec(code);
  const region = (match?.[3] ?? "").toUpperCase();
  return (
    match !== null &&
    ISO_639_1.has((match[1] ?? "").toLowerCase()) &&
    (region === "" || /^\d{3}$/.test(region) || ISO_3166_1.has(region))
  );
}

/** `<html lang>`: a BCP 47 shape with a known primary language (2-letter) or a 3-letter code. */
export function isValidLang(code: string): boolean {
  const match = /^([a-z]{2,3})(-[a-z0-9]{1,8})*$/i.exec(code);
  if (!match) return false;
  const primary = (match[1] ?? "").toLowerCase();
  return primary.length === 3 || ISO_639_1.has(primary);
}
