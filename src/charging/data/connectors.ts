/**
 * The normalised connector vocabulary: one slug per physical plug standard, with the OCM
 * ConnectionType ids and OSM `socket:*` keys that mean it, OCPI 2.2.1 names and search aliases.
 * @module
 */

interface ConnectorKind {
  /** Slug served as `Connector.type`. */
  type: string;
  name: string;
  /** OCPI 2.2.1 `ConnectorType` values (2.3.0 for SAE_J3400). */
  ocpi: readonly string[];
  /** Extra words the `connector` search filter matches (lower case). */
  aliases: readonly string[];
  current: "AC" | "DC" | null;
  ocmIds: readonly number[];
  osmKeys: readonly string[];
}

const kind = (
  type: string,
  name: string,
  current: ConnectorKind["current"],
  ocmIds: number[],
  osmKeys: string[],
  ocpi: string[],
  aliases: string[] = [],
): ConnectorKind => ({ type, name, current, ocmIds, osmKeys, ocpi, aliases });

/** Ordered as a listing tool shows them: common fast-charging plugs first. */
export const CONNECTOR_KINDS: readonly ConnectorKind[] = [
  kind(
    "ccs2",
    "CCS Combo 2",
    "DC",
    [33],
    ["type2_combo", "combo2", "ccs", "tesla_supercharger_ccs"],
    ["IEC_62196_T2_COMBO"],
    ["combo", "ccs", "combined charging system"],
  ),
  kind(
    "ccs1",
    "CCS Combo 1",
    "DC",
    [32],
    ["type1_combo", "combo1"],
    ["IEC_62196_T1_COMBO"],
    ["combo", "ccs", "combined charging system"],
  ),
  kind("chademo", "CHAdeMO", "DC", [2], ["chademo"], ["CHADEMO"]),
  kind(
    "type2",
    "Type 2 (Mennekes)",
    "AC",
    [25, 1036],
    ["type2", "type2_cable"],
    ["IEC_62196_T2"],
    ["mennekes", "iec 62196-2"],
  ),
  kind("type1", "Type 1 (J1772)", "AC", [1], ["type1"], ["IEC_62196_T1"], ["j1772", "yazaki"]),
  kind(
    "nacs",
    "NACS (SAE J3400)",
    null,
    [],
    ["nacs"],
    ["SAE_J3400"],
    ["j3400", "north american charging standard"],
  ),
  kind(
    "tesla",
    "Tesla",
    null,
    [8, 27, 30],
    ["tesla_supercharger", "tesla_standard", "tesla_destination", "tesla_roadster"],
    ["TESLA_S", "TESLA_R"],
    ["supercharger"],
  ),
  kind("gbt_dc", "GB/T DC", "DC", [1040], ["gb_dc"], ["GBT_DC"], ["gb/t"]),
  kind("gbt_ac", "GB/T AC", "AC", [1038, 1039], ["gb_ac"], ["GBT_AC"], ["gb/t"]),
  kind(
    "type3",
    "Type 3 (SCAME)",
    "AC",
    [26, 36],
    ["type3", "type3a", "type3c"],
    ["IEC_62196_T3A", "IEC_62196_T3C"],
    ["scame"],
  ),
  kind(
    "schuko",
    "Schuko (CEE 7/4, Type F)",
    "AC",
    [28, 23],
    ["schuko", "typee"],
    ["DOMESTIC_F", "DOMESTIC_E"],
    ["cee 7/4", "domestic"],
  ),
  kind("bs1363", "BS 1363 (Type G)", "AC", [3], ["bs1363"], ["DOMESTIC_G"], ["domestic", "uk 3-pin"]),
  kind("europlug", "Europlug (CEE 7/16)", "AC", [13], ["europlug"], ["DOMESTIC_C"], ["domestic"]),
  kind(
    "type_j",
    "Swiss T13 (Type J)",
    "AC",
    [1037],
    ["sev1011_t13", "sev1011_t15", "sev1011_t23", "sev1011_t25"],
    ["DOMESTIC_J"],
    ["sev 1011", "domestic"],
  ),
  kind("type_i", "AS/NZS 3112 (Type I)", "AC", [29, 1041], ["as3112"], ["DOMESTIC_I"], ["domestic"]),
  kind(
    "cee_blue",
    "CEE blue (IEC 60309 single-phase)",
    "AC",
    [4, 16, 34],
    ["cee_blue"],
    ["IEC_60309_2_single_16"],
    ["iec 60309", "camping"],
  ),
  kind(
    "cee_red",
    "CEE red (IEC 60309 three-phase)",
    "AC",
    [17, 35],
    ["cee_red_16a", "cee_red_32a", "cee_red_63a", "cee_red_125a"],
    ["IEC_60309_2_three_16", "IEC_60309_2_three_32", "IEC_60309_2_three_64"],
    ["iec 60309"],
  ),
  kind(
    "nema",
    "NEMA outlet",
    "AC",
    [9, 10, 11, 14, 15, 22, 1042],
    ["nema_5_15", "nema_5_20", "nema_14_30", "nema_14_50"],
    ["NEMA_5_20", "NEMA_6_30", "NEMA_14_30", "NEMA_14_50"],
    ["domestic"],
  ),
  kind("wireless", "Wireless (inductive)", null, [5, 6, 24], ["wireless"], [], ["inductive"]),
  kind("other", "Other or unknown", null, [0], [], [], ["unknown"]),
];

const byType = new Map(CONNECTOR_KINDS.map((k) => [k.type, k]));
const byOcmId = new Map(CONNECTOR_KINDS.flatMap((k) => k.ocmIds.map((id) => [id, k] as const)));
const byOsmKey = new Map(CONNECTOR_KINDS.flatMap((k) => k.osmKeys.map((key) => [key, k] as const)));
const OTHER = byType.get("other") as ConnectorKind;

/** The vocabulary entry for a slug (unknown slugs read as `other`). */
export function connectorKind(type: string): ConnectorKind {
  return byType.get(type) ?? OTHER;
}

/** OCM `ConnectionTypeID` to the vocabulary (ids newer than the table read as `other`). */
export function kindForOcmId(id: number | null | undefined): ConnectorKind {
  return (id === null || id === undefined ? undefined : byOcmId.get(id)) ?? OTHER;
}

/** OSM socket name (the `<x>` of `socket:<x>`) to the vocabulary; undefined when it is not a socket we know. */
export function kindForOsmSocket(socket: string): ConnectorKind | undefined {
  return byOsmKey.get(socket.toLowerCase());
}

/** Lower-case words the `connector` filter matches for one connector: slug, name, aliases, label. */
export function searchTerms(type: string, label: string): string[] {
  const k = connectorKind(type);
  return [k.type, k.name.toLowerCase(), ...k.aliases, label.toLowerCase()];
}
