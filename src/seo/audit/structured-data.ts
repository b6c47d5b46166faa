/**
 * JSON-LD items judged against Google's rich-result rules: for the common schema.org types, the
 * properties Google's structured-data guides (developers.google.com/search/docs/appearance/
 * structured-data) mark required (without them the item is not eligible for a rich result) and
 * recommended (they enrich it). Items are walked into their nested values, so an `Offer` inside
 * a `Product` is judged as an Offer. Only compact text leaves here: "Product: offers|review|
 * aggregateRating", at most a few per block.
 * @module
 */
import type { CheckId } from "./catalogue.ts";
import type { JsonLdItem } from "./html-facts.ts";

/**
 * One rule: each required entry is a property, or alternatives joined by `|` (one of them is
 * enough); `nested` entries are not required when the item sits inside another (a Review inside
 * a Product needs no itemReviewed); a `topLevel` rule judges only items that are not inside
 * another (an Organization named as a brand or organizer is a reference, not the site's own
 * Organization markup).
 */
interface Rule {
  required: readonly string[];
  recommended: readonly string[];
  nested?: readonly string[];
  topLevel?: true;
}

const ARTICLE: Rule = { required: [], recommended: ["headline", "image", "datePublished", "dateModified", "author"] };
const LOCAL_BUSINESS: Rule = {
  topLevel: true,
  required: ["name", "address"],
  recommended: ["telephone", "url", "geo", "openingHoursSpecification", "priceRange"],
};

/** Google's guides, type by type (the Article and LocalBusiness rules also cover their common subtypes). */
const RICH_RESULT_RULES: Readonly<Record<string, Rule>> = {
  Article: ARTICLE,
  NewsArticle: ARTICLE,
  BlogPosting: ARTICLE,
  Product: {
    required: ["name", "offers|review|aggregateRating"],
    recommended: ["image", "description", "brand", "sku"],
  },
  Offer: { required: ["price|priceSpecification"], recommended: ["priceCurrency", "availability", "url"] },
  AggregateOffer: { required: ["lowPrice", "priceCurrency"], recommended: ["highPrice", "offerCount"] },
  Review: {
    required: ["author", "reviewRating", "itemReviewed"],
    recommended: ["datePublished"],
    nested: ["itemReviewed"],
  },
  AggregateRating: {
    required: ["ratingValue", "ratingCount|reviewCount", "itemReviewed"],
    recommended: ["bestRating", "worstRating"],
    nested: ["itemReviewed"],
  },
  BreadcrumbList: { required: ["itemListElement"], recommended: [] },
  ListItem: { required: ["position", "name|item"], recommended: [] },
  FAQPage: { required: ["mainEntity"], recommended: [] },
  Question: { required: ["name", "acceptedAnswer"], recommended: [] },
  Answer: { required: ["text"], recommended: [] },
  HowTo: { required: ["name", "step"], recommended: ["image", "totalTime", "supply", "tool", "estimatedCost"] },
  Organization: { topLevel: true, required: [], recommended: ["name", "url", "logo", "sameAs"] },
  LocalBusiness: LOCAL_BUSINESS,
  Restaurant: LOCAL_BUSINESS,
  Store: LOCAL_BUSINESS,
  Event: {
    required: ["name", "startDate", "location"],
    recommended: ["description", "endDate", "eventStatus", "image", "offers", "organizer", "performer"],
  },
  Recipe: {
    required: ["name", "image"],
    recommended: ["author", "datePublished", "description", "recipeIngredient", "recipeInstructions", "recipeYield", "totalTime"],
  },
  VideoObject: {
    required: ["name", "thumbnailUrl", "uploadDate"],
    recommended: ["description", "contentUrl|embedUrl", "duration"],
  },
  JobPosting: {
    required: ["title", "description", "datePosted", "hiringOrganization", "jobLocation|applicantLocationRequirements"],
    recommended: ["baseSalary", "employmentType", "validThrough", "identifier"],
  },
};

/** What one JSON-LD block lacks, as "Type: property" texts. */
interface RichResultGaps {
  required: string[];
  recommended: string[];
}

/** Texts kept per block, and how deep nested values are walked: a page's facts stay small. */
const GAPS_KEPT = 5;
const MAX_DEPTH = 6;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** A property counts when it holds something: not null, not "", not []. */
function present(node: Record<string, unknown>, names: string): boolean {
  return names.split("|").some((name) => {
    const value = node[name];
    return value !== undefined && value !== null && value !== "" && !(Array.isArray(value) && value.length === 0);
  });
}

function typesOf(node: Record<string, unknown>): string[] {
  const type = node["@type"];
  const list = Array.isArray(type) ? type : [type];
  // "https://schema.org/Product" and "schema:Product" name the same type.
  return list.filter((t): t is string => typeof t === "string").map((t) => t.replace(/^.*[/:#]/, ""));
}

function judge(node: Record<string, unknown>, nested: boolean, gaps: RichResultGaps): void {
  for (const type of typesOf(node)) {
    const rule = RICH_RESULT_RULES[type];
    if (!rule || (nested && rule.topLevel)) continue;
    for (const names of rule.required)
      if (!(nested && rule.nested?.includes(names)) && !present(node, names)) gaps.required.push(`${type}: ${names}`);
    for (const names of rule.recommended) if (!present(node, names)) gaps.recommended.push(`${type}: ${names}`);
  }
}

function walk(value: unknown, nested: boolean, depth: number, gaps: RichResultGaps): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) walk(item, nested, depth + 1, gaps);
    return;
  }
  if (!isObject(value)) return;
  judge(value, nested, gaps);
  for (const [key, child] of Object.entries(value))
    if (key !== "@context") walk(child, key !== "@graph" || nested, depth + 1, gaps);
}

/** The rich-result gaps of a parsed JSON-LD block (top-level items, `@graph` members and nested items). */
export function richResultGaps(data: unknown): RichResultGaps {
  const gaps: RichResultGaps = { required: [], recommended: [] };
  walk(data, false, 0, gaps);
  const distinct = (list: string[]) => [...new Set(list)].slice(0, GAPS_KEPT);
  return { required: distinct(gaps.required), recommended: distinct(gaps.recommended) };
}

const listed = (gaps: string[]) => `${gaps.slice(0, 3).join(", ")}${gaps.length > 3 ? ` (+${gaps.length - 3} more)` : ""}`;

/** The structured-data findings of a page's JSON-LD blocks: syntax (with its line), @type, rich-result gaps. */
export function structuredDataHits(items: JsonLdItem[], hit: (id: CheckId, evidence: string) => void): void {
  const broken = items.find((item) => item.error !== undefined && item.types.length === 0 && !/no @type/.test(item.error));
  if (broken) hit("structured-data-invalid", `line ${broken.line ?? 1}: ${(broken.error ?? "").slice(0, 100)}`);
  const untyped = items.find((item) => item.error !== undefined && (item.types.length > 0 || /no @type/.test(item.error)));
  if (untyped) hit("structured-data-missing-type", `a JSON-LD item has no @type (block on line ${untyped.line ?? 1})`);
  const required = items.flatMap((item) => item.missing ?? []);
  if (required.length > 0) hit("structured-data-missing-required", `missing ${listed(required)}`);
  const recommended = items.flatMap((item) => item.recommended ?? []);
  if (recommended.length > 0) hit("structured-data-missing-recommended", `missing ${listed(recommended)}`);
}
