// One resource's rows as the API shows them: JSON-LD items, references as IRIs or embedded objects, to-many links as
// IRI lists, derived values, then the declaration's expand hook.
import { asc, inArray } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Principal } from '../auth/principal';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/connect';
import { iriOf } from '#domain/iri';
import type { DeclaredTable } from './columns';
import { jsonValue } from './jsonValues';
import type { Registry } from './repository';
import type { Row } from './types';

export class ResourceSerializer {
  constructor(
    private readonly table: DeclaredTable,
    private readonly registry: Registry,
    private readonly app: AppContext,
  ) {}

  /** Items as the API returns them: serialized, then expanded by the resource's own hook. */
  async present(principal: Principal, rows: Row[], mode: 'list' | 'item', tx: DbOrTx = this.app.db): Promise<Row[]> {
    const items = await this.serialize(rows, tx);
    await this.table.decl.hooks?.expand?.({ app: this.app, principal, tx }, items, rows, mode);
    return items;
  }

  /** JSON-LD items for rows: references as IRIs or embedded objects, to-many as IRI lists, derived values. */
  async serialize(rows: Row[], tx: DbOrTx = this.app.db): Promise<Row[]> {
    const { decl, fieldEntries } = this.table;
    const key = (column: AnyPgColumn) => this.table.key(column);
    const embeds = new Map<string, Map<number, Row>>();
    const lists = new Map<string, Map<number, number[]>>();
    const ids = rows.map((r) => Number(r[key(decl.idColumn)]));

    const read = async ([name, field]: (typeof fieldEntries)[number]) => {
      if (!field.readable) return;
      // Rows read through the reader's selection carry their embeds and links already.
      if (rows.every((r) => `__embed_${name}` in r || `__links_${name}` in r)) return;
      if (field.kind === 'reference' && field.embed?.length) {
        const targetIds = [...new Set(rows.map((r) => r[key(field.column)]).filter((v): v is number => typeof v === 'number'))];
        embeds.set(name, await this.registry.get(field.target).embedRows(targetIds, field.embed, tx));
      }
      if (field.kind === 'references' && ids.length) {
        const links = await tx
          .select({ owner: field.link.ownerColumn, target: field.link.targetColumn })
          .from(field.link.table)
          .where(inArray(field.link.ownerColumn, ids))
          .orderBy(asc(field.link.targetColumn));
        const byOwner = new Map<number, number[]>();
        for (const link of links) byOwner.set(Number(link.owner), [...(byOwner.get(Number(link.owner)) ?? []), Number(link.target)]);
        lists.set(name, byOwner);
      }
    };
    // On the pool the reads go out together; a transaction's one connection takes them one after the other.
    if (tx === this.app.db) await Promise.all(fieldEntries.map(read));
    else for (const entry of fieldEntries) await read(entry);

    return rows.map((row) => {
      const id = Number(row[key(decl.idColumn)]);
      const item: Row = { '@id': this.table.iri(id), '@type': decl.className, id };
      for (const [name, field] of fieldEntries) {
        if (!field.readable) continue;
        switch (field.kind) {
          case 'column':
            item[name] = jsonValue(row[key(field.column)]);
            break;
          case 'reference': {
            const targetId = row[key(field.column)] as number | null;
            const embedded = row[`__embed_${name}`] as Row | null | undefined;
            if (targetId === null || targetId === undefined) item[name] = null;
            else if (embedded) item[name] = this.registry.get(field.target).embedded(embedded);
            else item[name] = embeds.get(name)?.get(targetId) ?? iriOf(field.target, targetId);
            break;
          }
          case 'references': {
            const linked = row[`__links_${name}`] as number[] | undefined;
            item[name] = (linked ?? lists.get(name)?.get(id) ?? []).map((targetId) => iriOf(field.target, Number(targetId)));
            break;
          }
          case 'computed':
            item[name] = jsonValue(row[`__${name}`]);
            break;
          case 'derived':
            item[name] = field.derive(row);
            break;
        }
      }
      return item;
    });
  }

  /** An embedded row (from the reader's embed expression) as the API shows it: {@id, @type, id, ...fields}. */
  embedded(values: Row): Row {
    const id = Number(values.id);
    return { '@id': this.table.iri(id), '@type': this.table.decl.className, ...values, id };
  }

  /** {@id, @type, id, ...columns} of target rows, to embed in a referencing item. */
  async embedRows(ids: number[], fieldNames: string[], tx: DbOrTx): Promise<Map<number, Row>> {
    if (ids.length === 0) return new Map();
    const { decl } = this.table;
    const columns: Record<string, AnyPgColumn> = { id: decl.idColumn };
    for (const name of fieldNames) {
      const field = decl.fields[name];
      if (field && (field.kind === 'column' || field.kind === 'reference')) columns[name] = field.column;
    }
    const rows = await tx.select(columns).from(decl.table).where(inArray(decl.idColumn, ids));
    return new Map(
      rows.map((r) => {
        const id = Number(r.id);
        const embedded: Row = { '@id': this.table.iri(id), '@type': decl.className, id };
        for (const name of fieldNames) embedded[name] = jsonValue(r[name]);
        return [id, embedded];
      }),
    );
  }
}
