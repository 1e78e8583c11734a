// One declared resource's repository: the reader (queries, filters, pages, SQL-written lists), the serializer (JSON-LD
// items and embeds) and the writer (create, update, delete, checks and audit) behind the API the routes and hooks call.
import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Principal } from '../auth/principal';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/connect';
import type { PermissionDefinition } from '#domain/permissions';
import { DeclaredTable } from './columns';
import type { KeptList } from './listCache';
import { ListCounts } from './listCounts';
import type { ListQuery } from './query';
import { ResourceReader } from './reader';
import { ResourceSerializer } from './serializer';
import type { Field, ResourceDeclaration, Row } from './types';
import { ResourceWriter } from './writer';

export interface Registry {
  get(name: string): ResourceRepository;
  readonly permissionCatalogue: readonly PermissionDefinition[];
}

export class ResourceRepository {
  readonly keys: Map<AnyPgColumn, string>;
  readonly fieldEntries: [string, Field][];
  private readonly table: DeclaredTable;
  private readonly counts: ListCounts;
  private readonly reader: ResourceReader;
  private readonly serializer: ResourceSerializer;
  private readonly writer: ResourceWriter;

  constructor(
    readonly decl: ResourceDeclaration,
    registry: Registry,
    app: AppContext,
  ) {
    this.table = new DeclaredTable(decl);
    this.keys = this.table.keys;
    this.fieldEntries = this.table.fieldEntries;
    this.counts = new ListCounts(decl.table, app);
    this.reader = new ResourceReader(this.table, registry, app, this.counts);
    this.serializer = new ResourceSerializer(this.table, registry, app);
    this.writer = new ResourceWriter(this.table, registry, app, this.reader, this.counts);
  }

  iri(id: number | string) {
    return this.table.iri(id);
  }

  // ---------- reading (reader.ts) ----------

  /** Rows the principal may see (tenancy), archived ones excluded. */
  visibility(principal: Principal): SQL | undefined {
    return this.reader.visibility(principal);
  }

  /** The extra condition on what the principal may read (undefined: tenancy alone); 403 when they may read nothing. */
  readRestriction(principal: Principal): SQL | undefined {
    return this.reader.readRestriction(principal);
  }

  list(principal: Principal, query: ListQuery): Promise<{ rows: Row[]; total: number }> {
    return this.reader.list(principal, query);
  }

  /** A list page as PostgreSQL writes it (undefined: the caller serializes in JavaScript); see ResourceReader.listJson. */
  listJson(principal: Principal, query: ListQuery): Promise<KeptList | undefined> {
    return this.reader.listJson(principal, query);
  }

  /** One visible row, or undefined (the caller answers 404: another organisation's record does not exist for them). */
  find(principal: Principal, id: number, tx?: DbOrTx, restriction?: SQL): Promise<Row | undefined> {
    return this.reader.find(principal, id, tx, restriction);
  }

  /** The record as the principal may read it, with the declaration's itemRead values, or a 404. */
  get(principal: Principal, id: number, tx?: DbOrTx): Promise<Row> {
    return this.reader.get(principal, id, tx);
  }

  /** Ids among `ids` that the principal may see: used to refuse references to records outside their perimeter. */
  visibleIds(principal: Principal, ids: number[], tx?: DbOrTx): Promise<Set<number>> {
    return this.reader.visibleIds(principal, ids, tx);
  }

  // ---------- JSON-LD (serializer.ts) ----------

  /** Items as the API returns them: serialized, then expanded by the resource's own hook. */
  present(principal: Principal, rows: Row[], mode: 'list' | 'item', tx?: DbOrTx): Promise<Row[]> {
    return this.serializer.present(principal, rows, mode, tx);
  }

  /** JSON-LD items for rows: references as IRIs or embedded objects, to-many as IRI lists, derived values. */
  serialize(rows: Row[], tx?: DbOrTx): Promise<Row[]> {
    return this.serializer.serialize(rows, tx);
  }

  /** An embedded row as the API shows it: {@id, @type, id, ...fields}. */
  embedded(values: Row): Row {
    return this.serializer.embedded(values);
  }

  /** {@id, @type, id, ...columns} of target rows, to embed in a referencing item. */
  embedRows(ids: number[], fieldNames: string[], tx: DbOrTx): Promise<Map<number, Row>> {
    return this.serializer.embedRows(ids, fieldNames, tx);
  }

  // ---------- writing (writer.ts) ----------

  /** `outerTx`: create inside the caller's transaction (an all-or-nothing import of several records). */
  create(principal: Principal, body: unknown, outerTx?: DbOrTx): Promise<number> {
    return this.writer.create(principal, body, outerTx);
  }

  /** PUT replaces the writable fields; PATCH (merge-patch) changes only those it names. */
  update(principal: Principal, id: number, body: unknown, mode: 'put' | 'patch', tx?: DbOrTx, action = 'update'): Promise<void> {
    return this.writer.update(principal, id, body, mode, tx, action);
  }

  remove(principal: Principal, id: number, tx?: DbOrTx, action = 'delete'): Promise<void> {
    return this.writer.remove(principal, id, tx, action);
  }

  /** All or nothing: each id is checked like a single call, the first refusal cancels the whole batch. */
  bulk(principal: Principal, kind: 'delete' | 'update', body: unknown): Promise<number> {
    return this.writer.bulk(principal, kind, body);
  }

  /**
   * The principal has just committed a write to this resource: they no longer reuse a total counted before it. A
   * route that writes the resource's table without this repository (an import in one transaction, a payment
   * statement) calls it after its commit.
   */
  noteWrite(principal: Principal) {
    this.counts.noteWrite(principal);
  }
}
