/**
 * Building a snapshot: sites are added one at a time in any order (an import streams them),
 * kept in growable columns with a shared string table, and written in id order with the
 * kdbush index built over them. One site per id: `add` over a held id keeps the row with the
 * newer `lastUpdated` (on a tie, the one added first), as the import merge rule says.
 * @module
 */
import { DATASET_FORMAT, type DatasetHeader } from "../data/dataset.ts";
import { attributionForKey } from "../data/licence.ts";
import type { Site } from "../data/model.ts";
import { assemble, buildIndex, bytesOf } from "./assemble.ts";
import { Column, StringTable } from "./columns.ts";
import { type Crc32, crc32 as jsCrc32 } from "./crc32.ts";
import { INDEX_NODE_SIZE, NO_STRING, type SectionTag, SNAPSHOT_FORMAT, type SnapshotHead, TEXT_FIELDS } from "./format.ts";
import { ACCESS_CODE, CURRENT_CODE, STATUS_CODE, splitId, textOf } from "./site-codes.ts";

export interface WriteOptions {
  /** A faster CRC-32 (the Node adapter passes zlib's). */
  crc32?: Crc32;
  /** Points per kdbush leaf (default 64; tests use small ones for deep trees on few points). */
  nodeSize?: number;
}

interface Partition {
  source: Site["source"];
  licence: string;
  count: number;
}

export class SnapshotBuilder {
  readonly #strings = new StringTable();
  readonly #kinds = new Map<string, number>();
  readonly #kindList: [string, string][] = [];
  readonly #partitions = new Map<string, Partition>();
  readonly #partitionOf = new Column(Uint16Array);
  readonly #rowOf = new Map<string, number>();
  readonly #dead = new Column(Uint8Array);
  readonly #tags = new Column(Uint16Array);
  readonly #idKind = new Column(Uint8Array);
  readonly #idNum = new Column(Float64Array);
  readonly #lat = new Column(Float64Array);
  readonly #lon = new Column(Float64Array);
  readonly #text = new Column(Uint32Array, 1024 * TEXT_FIELDS.length);
  readonly #status = new Column(Uint8Array);
  readonly #access = new Column(Uint8Array);
  readonly #fee = new Column(Uint8Array);
  readonly #capacity = new Column(Int32Array);
  readonly #maxPower = new Column(Float64Array);
  readonly #firstConnector = new Column(Uint32Array);
  readonly #connectorCount = new Column(Uint32Array);
  readonly #connKind = new Column(Uint32Array);
  readonly #connPower = new Column(Float64Array);
  readonly #connQuantity = new Column(Int32Array);
  readonly #connCurrent = new Column(Uint8Array);
  readonly #partitionKeys: string[] = [];
  readonly #partitionNumber = new Map<string, number>();
  #live = 0;

  /** Sites held (one per id). */
  get size(): number {
    return this.#live;
  }

  /**
   * Adds a site with a caller's tag (the import passes its file number). Answers "added",
   * "replaced" (newer than the row held for its id; `replacedTag` is that row's tag) or
   * "older" (the held row stays).
   */
  add(site: Site, tag = 0): { outcome: "added" | "replaced" | "older"; replacedTag?: number } {
    const held = this.#rowOf.get(site.id);
    if (held !== undefined) {
      const heldDate = this.#textAt(held, TEXT_FIELDS.indexOf("lastUpdated")) ?? "";
      if (!((site.lastUpdated ?? "") > heldDate)) return { outcome: "older" };
      this.#dead.view()[held] = 1;
      this.#bump(held, -1);
      this.#live--;
    }
    const row = this.#push(site);
    this.#tags.push(tag);
    this.#rowOf.set(site.id, row);
    this.#live++;
    return held === undefined ? { outcome: "added" } : { outcome: "replaced", replacedTag: this.#tags.get(held) };
  }

  #textAt(row: number, field: number): string | null {
    const id = this.#text.get(row * TEXT_FIELDS.length + field);
    return id === NO_STRING ? null : this.#strings.value(id);
  }

  #bump(row: number, by: number): void {
    const key = this.#partitionKeys[this.#partitionOf.get(row)] as string;
    (this.#partitions.get(key) as Partition).count += by;
  }

  #partitionIndex(site: Site): number {
    let p = this.#partitions.get(site.attributionKey);
    if (!p) {
      p = { source: site.source, licence: site.licence, count: 0 };
      this.#partitions.set(site.attributionKey, p);
      this.#partitionNumber.set(site.attributionKey, this.#partitionKeys.length);
      this.#partitionKeys.push(site.attributionKey);
    }
    return this.#partitionNumber.get(site.attributionKey) as number;
  }

  #kindIndex(type: string, label: string): number {
    const key = `${type}\u0000${label}`;
    let kind = this.#kinds.get(key);
    if (kind === undefined) {
      kind = this.#kindList.length;
      this.#kinds.set(key, kind);
      this.#kindList.push([type, label]);
    }
    return kind;
  }

  #push(site: Site): number {
    const { kind, num } = splitId(site.id);
    const row = this.#idKind.length;
    this.#idKind.push(kind);
    this.#idNum.push(num);
    this.#dead.push(0);
    this.#lat.push(site.lat);
    this.#lon.push(site.lon);
    for (const field of TEXT_FIELDS) {
      const text = textOf(site, field);
      this.#text.push(text === null ? NO_STRING : this.#strings.id(text));
    }
    this.#partitionOf.push(this.#partitionIndex(site));
    this.#bump(row, 1);
    this.#status.push(STATUS_CODE.get(site.status) ?? STATUS_CODE.get("UNKNOWN") ?? 0);
    this.#access.push(site.access ? (ACCESS_CODE.get(site.access) ?? 0) : 0);
    this.#fee.push(site.fee === null ? 0 : site.fee ? 2 : 1);
    this.#capacity.push(site.capacity ?? -1);
    this.#maxPower.push(site.maxPowerKw ?? Number.NaN);
    this.#firstConnector.push(this.#connKind.length);
    this.#connectorCount.push(site.connectors.length);
    for (const c of site.connectors) {
      this.#connKind.push(this.#kindIndex(c.type, c.label));
      this.#connPower.push(c.powerKw ?? Number.NaN);
      this.#connQuantity.push(c.quantity ?? -1);
      this.#connCurrent.push(c.current ? CURRENT_CODE[c.current] : 0);
    }
    return row;
  }

  /** The rows alive, in id order. */
  #order(): Uint32Array {
    const dead = this.#dead.view();
    const kinds = this.#idKind.view();
    const nums = this.#idNum.view();
    const rows: number[] = [];
    for (let r = 0; r < dead.length; r++) if (dead[r] === 0) rows.push(r);
    const order = Uint32Array.from(rows);
    return order.sort((a, b) => (kinds[a] as number) - (kinds[b] as number) || (nums[a] as number) - (nums[b] as number));
  }

  /** The data-set header of what is held: partitions by key with credit lines, counts per source. */
  header(importedAt: string, sources: DatasetHeader["sources"]): DatasetHeader {
    const keys = [...this.#partitions.keys()].filter((k) => (this.#partitions.get(k) as Partition).count > 0).sort();
    const counts: Record<string, number> = { sites: this.#live, ocm: 0, osm: 0 };
    for (const key of keys) {
      const p = this.#partitions.get(key) as Partition;
      counts[p.source] = (counts[p.source] ?? 0) + p.count;
    }
    return {
      format: DATASET_FORMAT,
      importedAt,
      sources,
      partitions: keys.map((key) => {
        const p = this.#partitions.get(key) as Partition;
        return { key, source: p.source, licence: p.licence, count: p.count, attribution: attributionForKey(key) };
      }),
      counts,
    };
  }

  /** The snapshot bytes: header sections, columns in id order, the kdbush index, CRC-32 per section. */
  finish(importedAt: string, sources: DatasetHeader["sources"], options: WriteOptions = {}): Uint8Array {
    const dataset = this.header(importedAt, sources);
    const order = this.#order();
    const sections = this.#sections(order, dataset, options.nodeSize ?? INDEX_NODE_SIZE);
    return assemble(sections, options.crc32 ?? jsCrc32);
  }

  #sections(order: Uint32Array, dataset: DatasetHeader, nodeSize: number): [SectionTag, Uint8Array][] {
    const n = order.length;
    const partitionIndex = new Map(dataset.partitions.map((p, i) => [p.key, i]));
    const remap = Uint16Array.from(this.#partitionKeys, (key) => partitionIndex.get(key) ?? 0);
    const part = new Uint16Array(n);
    for (let k = 0; k < n; k++) part[k] = remap[this.#partitionOf.get(order[k] as number)] as number;
    const connectors = this.#connectorRows(order);
    const lats = this.#lat.permuted(order);
    const lons = this.#lon.permuted(order);
    const head: SnapshotHead = {
      format: SNAPSHOT_FORMAT,
      dataset,
      sites: n,
      connectors: connectors.count,
      strings: this.#strings.count,
      kinds: this.#kindList,
    };
    return [
      ["HEAD", new TextEncoder().encode(JSON.stringify(head))],
      ["KIND", bytesOf(this.#idKind.permuted(order))],
      ["NUMB", bytesOf(this.#idNum.permuted(order))],
      ["LATS", bytesOf(lats)],
      ["LONS", bytesOf(lons)],
      ["TEXT", bytesOf(this.#text.permuted(order, TEXT_FIELDS.length))],
      ["PART", bytesOf(part)],
      ["STAT", bytesOf(this.#status.permuted(order))],
      ["ACCS", bytesOf(this.#access.permuted(order))],
      ["FEES", bytesOf(this.#fee.permuted(order))],
      ["CAPY", bytesOf(this.#capacity.permuted(order))],
      ["MAXP", bytesOf(this.#maxPower.permuted(order))],
      ["CONO", bytesOf(connectors.offsets)],
      ["CKND", bytesOf(connectors.kind)],
      ["CPOW", bytesOf(connectors.power)],
      ["CQTY", bytesOf(connectors.quantity)],
      ["CCUR", bytesOf(connectors.current)],
      ["STRO", bytesOf(this.#strings.offsets())],
      ["STRB", this.#strings.bytes()],
      ["KDBX", new Uint8Array(buildIndex(lons, lats, nodeSize))],
    ];
  }

  #connectorRows(order: Uint32Array) {
    const n = order.length;
    const offsets = new Uint32Array(n + 1);
    for (let k = 0; k < n; k++) offsets[k + 1] = (offsets[k] as number) + this.#connectorCount.get(order[k] as number);
    const count = offsets[n] as number;
    const kind = new Uint32Array(count);
    const power = new Float64Array(count);
    const quantity = new Int32Array(count);
    const current = new Uint8Array(count);
    for (let k = 0; k < n; k++) {
      const row = order[k] as number;
      const from = this.#firstConnector.get(row);
      const to = offsets[k] as number;
      for (let j = 0; j < this.#connectorCount.get(row); j++) {
        kind[to + j] = this.#connKind.get(from + j);
        power[to + j] = this.#connPower.get(from + j);
        quantity[to + j] = this.#connQuantity.get(from + j);
        current[to + j] = this.#connCurrent.get(from + j);
      }
    }
    return { offsets, kind, power, quantity, current, count };
  }
}

/** A snapshot of `sites` (tests, the embedded data, JSON data sets converted at start-up). */
export function snapshotOf(
  sites: Iterable<Site>,
  header: Pick<DatasetHeader, "importedAt" | "sources">,
  options?: WriteOptions,
): Uint8Array {
  const builder = new SnapshotBuilder();
  for (const site of sites) builder.add(site);
  return builder.finish(header.importedAt, header.sources, options);
}
