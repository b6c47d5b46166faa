/**
 * Seed expansion for autocomplete: the seed itself, question forms (English only), then the
 * seed followed by each letter, the classic way to widen what suggestion boxes reveal.
 * @module
 */

const QUESTION_WORDS = ["how", "what", "why", "when", "where", "who", "which", "can", "is", "does"];
const ALPHABET = "abcdefghijklmnopqrstuvwxyz".split("");

/** The queries to send, in priority order, without duplicates. */
export function expansions(seed: string, language: string, expand: boolean): string[] {
  const base = seed.trim().replace(/\s+/g, " ");
  if (!expand) return [base];
  const questions = language === "en" ? QUESTION_WORDS.map((w) => `${w} ${base}`) : [];
  return [...new Set([base, ...questions, ...ALPHABET.map((c) => `${base} ${c}`)])];
}

/** The comparison key of a keyword: lower case, single spaces. */
export const keywordKey = (keyword: string): string => keyword.trim().toLowerCase().replace(/\s+/g, " ");
