/**
 * OCM reference data (`ocm-reference.json`, a mongoexport of `/v3/referencedata`): the lookups
 * compact POIs need (data providers with their licences, operators, connection types, countries).
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";

const Named = v.looseObject({ ID: v.number(), Title: v.nullish(v.string()) });

const ReferenceSchema = v.looseObject({
  ConnectionTypes: v.array(Named),
  DataProviders: v.array(
    v.looseObject({
      ID: v.number(),
      Title: v.nullish(v.string()),
      License: v.nullish(v.string()),
      IsOpenDataLicensed: v.nullish(v.boolean()),
    }),
  ),
  Operators: v.array(Named),
  Countries: v.array(v.looseObject({ ID: v.number(), ISOCode: v.nullish(v.string()) })),
});

export interface Provider {
  id: number;
  title: string | null;
  licence: string | null;
  isOpen: boolean | null;
}

export interface OcmReference {
  providers: ReadonlyMap<number, Provider>;
  operators: ReadonlyMap<number, string>;
  connectionTypes: ReadonlyMap<number, string>;
  countries: ReadonlyMap<number, string>;
}

const titles = (rows: readonly { ID: number; Title?: string | null }[]) =>
  new Map(rows.flatMap((r) => (r.Title?.trim() ? [[r.ID, r.Title.trim()] as const] : [])));

/** Validates reference data; throws INVALID_DATA naming the first problem. */
export function parseOcmReference(json: unknown): OcmReference {
  const parsed = v.safeParse(ReferenceSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new ApiError(
      "INVALID_DATA",
      `not OCM reference data: ${issue ? `${v.getDotPath(issue)}: ${issue.message}` : "invalid"}`,
    );
  }
  const ref = parsed.output;
  return {
    providers: new Map(
      ref.DataProviders.map((p) => [
        p.ID,
        {
          id: p.ID,
          title: p.Title ?? null,
          licence: p.License ?? null,
          isOpen: p.IsOpenDataLicensed ?? null,
        },
      ]),
    ),
    operators: titles(ref.Operators),
    connectionTypes: titles(ref.ConnectionTypes),
    countries: new Map(
      ref.Countries.flatMap((c) => (c.ISOCode ? [[c.ID, c.ISOCode.toUpperCase()] as const] : [])),
    ),
  };
}
