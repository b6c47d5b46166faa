/**
 * Generic link text ("click here", "read more"): a link that names nothing of its target, to
 * search engines and screen readers alike.
 * @module
 */
const GENERIC_TEXT = new Set([
  "click here",
  "click this",
  "here",
  "read more",
  "more",
  "learn more",
  "go",
  "start",
  "this",
  "link",
  "right here",
]);
/** Longest generic link text, with room for stray spaces. */
export const GENERIC_MAX = Math.max(...[...GENERIC_TEXT].map((t) => t.length)) + 8;

const normalised = (text: string) => text.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * A link whose `title` or `aria-label` says more than a generic phrase, or that names its label
 * element, describes its target to search engines and screen readers alike: a language tab
 * "Go" titled "Go language: …" is not "click here".
 */
export function labelled(attrs: Record<string, string>): boolean {
  if ((attrs["aria-labelledby"] ?? "").trim() !== "") return true;
  return [attrs.title, attrs["aria-label"]].some((label) => {
    const text = normalised(label ?? "");
    return text !== "" && !GENERIC_TEXT.has(text);
  });
}

/** The link text, normalised, when it is a generic phrase. */
export function genericText(text: string): string | undefined {
  // The generic phrases are short: longer link texts need no normalising to rule them out.
  if (text.length > GENERIC_MAX) return undefined;
  const phrase = normalised(text);
  return GENERIC_TEXT.has(phrase) ? phrase : undefined;
}
