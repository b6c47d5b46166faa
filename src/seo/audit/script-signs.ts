/**
 * Signs that scripts build or move a page: the element a framework mounts into, an inline
 * script that sets `location`, and which `<script>` types run as JavaScript.
 * @module
 */
const SCRIPT_REDIRECT =
  /\b(?:(?:window|document|self|top)\.)?location(?:\.href)?\s*=\s*(["'`])([^"'`\s]+)\1|\blocation\.(?:replace|assign)\(\s*(["'`])([^"'`\s]+)\3\s*\)/;

/** Ids the common script frameworks mount into (React, Vue, Next, Nuxt, Gatsby, Svelte, Quasar, Ember). */
const MOUNT_IDS = new Set(["root", "app", "__next", "__nuxt", "___gatsby", "svelte", "q-app", "ember-app", "app-root", "main-app"]);

/** A `<script>` of this `type` (trimmed, lower case) runs as JavaScript. */
export const isJavaScript = (type: string | undefined) =>
  type === undefined || /^\s*(text\/javascript|application\/javascript|module)?\s*$/i.test(type);

/** Where an inline script's text sends the browser, when it sets `location` to a literal. */
export function scriptRedirect(text: string): string | undefined {
  const found = SCRIPT_REDIRECT.exec(text);
  return found ? (found[2] ?? found[4]) : undefined;
}

/**
 * An element named like a framework's mount point: an id it mounts into, or a custom element
 * (`<app-root>`) outside scripts and templates.
 */
export function mountPoint(name: string, attrs: Record<string, string>, inSkipped: boolean): string | undefined {
  const id = attrs.id?.trim();
  if (id !== undefined && MOUNT_IDS.has(id.toLowerCase())) return `<${name} id="${id}">`;
  if (name.includes("-") && !inSkipped) return `<${name}>`;
  return undefined;
}
