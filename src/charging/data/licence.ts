/**
 * Which licences a served row may carry, and the credit line each data partition needs.
 * OCM rows carry their data provider's licence (`DataProvider.License`), so the licence is
 * read per row from the provider's stated text, never assumed from a constant.
 * @module
 */
import type { Attribution } from "./model.ts";

export const OSM_LICENCE = "ODbL-1.0";

/**
 * The open-licence allowlist: text pattern of a provider's stated licence -> licence id.
 * A licence is served when it lets anyone redistribute the data, commercial use included
 * (Open Definition 2.1). Refused on purpose: NonCommercial terms (Oplaadpalen.nl, CC BY-NC-SA),
 * "redistributed by agreement" (Mobie.pt: an agreement with OCM, not with our users),
 * vague statements ("General public data", ICAEN), and providers with no licence or
 * `IsOpenDataLicensed` not true (CarStations.com, ESB eCars, Blink, ...).
 */
const OPEN_LICENCES: readonly { pattern: RegExp; id: string }[] = [
  { pattern: /non-?commercial|\bNC\b/i, id: "" },
  { pattern: /CC BY-SA 4\.0|Attribution-ShareAlike 4\.0/i, id: "CC-BY-SA-4.0" },
  { pattern: /CC[ -]BY 4\.0|Attribution 4\.0/i, id: "CC-BY-4.0" },
  { pattern: /creativecommons\.org\/licenses\/by\/3\.0/i, id: "CC-BY-3.0" },
  { pattern: /Open Government Licence v2\.0/i, id: "OGL-UK-2.0" },
  { pattern: /Open Government Licence v3\.0/i, id: "OGL-UK-3.0" },
  { pattern: /may be used for any purpose whatsoever/i, id: "LicenseRef-NREL-AFDC" },
  { pattern: /Licence[ _]Ouverte/i, id: "LicenseRef-etalab-1.0" },
];

/** Every licence id a served row may carry. */
export const LICENCE_ALLOWLIST: readonly string[] = [
  ...new Set(OPEN_LICENCES.map((l) => l.id).filter(Boolean)),
  OSM_LICENCE,
];

/** The licence id for a provider's stated licence, or null when it is missing or not open. */
export function openLicence(text: string | null | undefined, isOpenDataLicensed: unknown): string | null {
  if (isOpenDataLicensed !== true || !text) return null;
  const match = OPEN_LICENCES.find((l) => l.pattern.test(text));
  return match?.id ? match.id : null;
}

const LICENCE_NAMES: Record<string, { name: string; url: string }> = {
  "CC-BY-4.0": { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
  "CC-BY-SA-4.0": { name: "CC BY-SA 4.0", url: "https://creativecommons.org/licenses/by-sa/4.0/" },
  "CC-BY-3.0": { name: "CC BY 3.0", url: "https://creativecommons.org/licenses/by/3.0/" },
  "OGL-UK-2.0": {
    name: "Open Government Licence v2.0",
    url: "https://www.nationalarchives.gov.uk/doc/open-government-licence/version/2/",
  },
  "OGL-UK-3.0": {
    name: "Open Government Licence v3.0",
    url: "https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/",
  },
  "LicenseRef-NREL-AFDC": { name: "NREL/DOE open data", url: "https://afdc.energy.gov/" },
  "LicenseRef-etalab-1.0": { name: "Licence Ouverte / Open Licence", url: "https://www.etalab.gouv.fr/" },
  [OSM_LICENCE]: { name: "ODbL 1.0", url: "https://www.openstreetmap.org/copyright" },
};

/** Providers whose credit line is not the generic one (texts from their stated terms). */
const PROVIDER_CREDITS: Record<number, Attribution> = {
  2: {
    text: "Contains data from the U.S. DOE Alternative Fuels Data Center (afdc.energy.gov), via Open Charge Map",
    url: "https://afdc.energy.gov/",
  },
  18: {
    text: "Contains public sector information licensed under the Open Government Licence v2.0 (UK National Charge Point Registry), via Open Charge Map",
    url: "https://www.nationalarchives.gov.uk/doc/open-government-licence/version/2/",
  },
  19: { text: "NOBIL by Enova, CC BY 4.0, via Open Charge Map", url: "https://nobil.no/" },
};

/** The partition key of an OCM row: provider and licence (one provider may change licence over time). */
export function ocmAttributionKey(providerId: number, licence: string): string {
  return `ocm/${providerId}/${licence}`;
}

export const OSM_ATTRIBUTION_KEY = "osm";

const OSM_CREDIT: Attribution = {
  text: "© OpenStreetMap contributors, ODbL 1.0",
  url: "https://www.openstreetmap.org/copyright",
};

/** The credit line for a partition key (unknown keys fall back to the source's own credit). */
export function attributionForKey(key: string): Attribution {
  if (key === OSM_ATTRIBUTION_KEY) return OSM_CREDIT;
  const [, provider, licence = ""] = key.split("/");
  const credit = PROVIDER_CREDITS[Number(provider)];
  if (credit) return credit;
  const name = LICENCE_NAMES[licence]?.name ?? licence;
  const label =
    provider === "1" ? "Open Charge Map contributors" : `Open Charge Map data provider ${provider}`;
  return { text: `Data © ${label}, ${name}`.trim(), url: "https://openchargemap.org" };
}
