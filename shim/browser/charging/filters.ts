/** The filter form, made from the OpenAPI document's parameters of GET /api/v1/sites and the values of GET /api/v1/reference. */
import { getJson, type QueryParameter } from "./api.ts";
import { element, form } from "./page.ts";

/** Query parameters the page sets itself (the view), and those of paging or syncing rather than filtering. */
const NOT_FILTERS = new Set(["bbox", "near", "radiusKm", "limit", "offset", "format", "cursor", "updatedSince"]);
export const isYesNo = (schema: QueryParameter["schema"]) =>
  schema?.type === "boolean" || (schema?.enum?.length === 2 && schema.enum.includes("true") && schema.enum.includes("false"));

/** The parameter's input: a checkbox for a yes/no, a number or a text field (lists: `controlOf`). */
export function inputOf(schema: QueryParameter["schema"] = {}): HTMLInputElement | HTMLSelectElement {
  const input = element("input");
  if (isYesNo(schema)) {
    input.type = "checkbox";
    input.value = "true";
  } else if (schema.type === "number" || schema.type === "integer") {
    input.type = "number";
    input.step = "any";
    if (schema.minimum !== undefined) input.min = String(schema.minimum);
    if (schema.maximum !== undefined) input.max = String(schema.maximum);
  }
  return input;
}

/** A choice of value and its label. */
export type Choice = [value: string, label: string];

/** Which list of `GET /api/v1/reference` offers a filter's values, and how to read one entry. */
export const REFERENCE: Record<string, [list: string, choice: (entry: Record<string, unknown>) => Choice]> = {
  connectorType: ["connectorTypes", (e) => [String(e.type), `${e.name} (${e.count})`]],
  current: ["currentTypes", (e) => [String(e.current), `${e.current} (${e.count})`]],
  country: ["countries", (e) => [String(e.code), `${e.code} (${e.count})`]],
  operator: ["operators", (e) => [String(e.id), `${e.name} (${e.count})`]],
  access: ["access", (e) => [String(e.value), `${e.value} (${e.count})`]],
  status: ["statuses", (e) => [String(e.value), `${e.value} (${e.count})`]],
};

/** The reference data's values for each filter that has them (none when the API has no reference route). */
export async function referenceChoices(): Promise<Record<string, Choice[]>> {
  type Reference = { data: Record<string, Record<string, unknown>[] | undefined> };
  const reference = await getJson<Reference>("api/v1/reference").catch((): Reference => ({ data: {} }));
  const choices: Record<string, Choice[]> = {};
  for (const [name, [list, choice]] of Object.entries(REFERENCE)) {
    const entries = reference.data[list];
    if (Array.isArray(entries) && entries.length > 0) choices[name] = entries.map(choice);
  }
  return choices;
}

export function controlOf(parameter: QueryParameter, choices: Choice[] | undefined): HTMLLabelElement {
  const label = element("label", parameter.name);
  label.title = parameter.description ?? "";
  const enumerated = parameter.schema?.enum?.map((value): Choice => [value, value]);
  const listed = choices ?? (isYesNo(parameter.schema) ? undefined : enumerated);
  let control = inputOf(parameter.schema);
  if (listed) {
    control = element("select");
    control.append(new Option("any", ""), ...listed.map(([value, text]) => new Option(text, value)));
  }
  control.name = parameter.name;
  label.append(control);
  return label;
}

export async function buildFilters(): Promise<void> {
  const [document, choices] = await Promise.all([
    getJson<{ paths: Record<string, { get?: { parameters?: QueryParameter[] } }> }>("api/v1/openapi.json"),
    referenceChoices(),
  ]);
  const parameters = document.paths["/api/v1/sites"]?.get?.parameters ?? [];
  const filters = parameters.filter((p) => p.in === "query" && !NOT_FILTERS.has(p.name));
  form.replaceChildren(...filters.map((p) => controlOf(p, choices[p.name])));
}

/** The filters set in the form, as query parameters (an empty control sets none). */
export function filterValues(): Record<string, string> {
  const values: Record<string, string> = {};
  for (const control of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input, select")) {
    if (control instanceof HTMLInputElement && control.type === "checkbox") {
      if (control.checked) values[control.name] = control.value;
    } else if (control.value.trim() !== "") values[control.name] = control.value.trim();
  }
  return values;
}
