// Writes one declared resource: permissions, validation, tenancy, references and uniqueness checked, hooks, links and
// audit, in one transaction; the batch operations all or nothing.
import { and, count, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { ZodError, type ZodType } from 'zod';
import type { Principal } from '../auth/principal';
import { PRINCIPAL_TABLES, requirePermission } from '../auth/principal';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/connect';
import { ApiError, conflict, forbidden, notFound, ValidationError, type Violation } from '../http/errors';
import { fieldWithNul, NUL_MESSAGE } from '../http/body';
import { diff, MASK, recordAudit, type Changes } from '../audit/audit';
import { idFromReference } from '#domain/iri';
import { columnKeys, type DeclaredTable } from './columns';
import { jsonValue } from './jsonValues';
import type { ListCounts } from './listCounts';
import type { ResourceReader } from './reader';
import type { Registry } from './repository';
import { schemasOf } from './validation';
import type { ReferenceField, ReferencesField, Row, Schemas, WriteContext } from './types';

export class ResourceWriter {
  /** Whether a write here may change a principal (its table or links are among PRINCIPAL_TABLES). */
  private readonly writesPrincipals: boolean;
  private readonly schemas: Schemas;
  private readonly patchSchema: ZodType;

  constructor(
    private readonly table: DeclaredTable,
    private readonly registry: Registry,
    private readonly app: AppContext,
    private readonly reader: ResourceReader,
    private readonly counts: ListCounts,
  ) {
    const { decl, fieldEntries } = table;
    this.writesPrincipals = [decl.table, ...fieldEntries.map(([, f]) => (f.kind === 'references' ? f.link.table : undefined))].some(
      (t) => t !== undefined && PRINCIPAL_TABLES.includes(t),
    );
    this.schemas = schemasOf(decl, registry.permissionCatalogue);
    const update = this.schemas.update as unknown as { partial?: () => ZodType };
    this.patchSchema = typeof update.partial === 'function' ? update.partial() : this.schemas.update;
  }

  private get decl() {
    return this.table.decl;
  }

  private key(column: AnyPgColumn) {
    return this.table.key(column);
  }

  /** Drops what is never input (@id, @type, originId...) and reads `holdingId` as `holding`. */
  private normaliseBody(body: unknown): Row {
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new ValidationError([{ propertyPath: '', message: 'Un objet JSON est attendu.' }]);
    }
    const input: Row = { ...(body as Row) };
    for (const key of ['@id', '@type', '@context', 'originId', '_audit', 'id']) delete input[key];
    const withNul = fieldWithNul(input);
    if (withNul !== undefined) throw new ValidationError([{ propertyPath: withNul, message: NUL_MESSAGE }]);
    for (const [name, field] of this.table.fieldEntries) {
      if ((field.kind === 'reference' || field.kind === 'references') && !(name in input) && `${name}Id` in input) {
        input[name] = input[`${name}Id`];
      }
    }
    return input;
  }

  private parse(schema: ZodType, input: Row): Row {
    const result = schema.safeParse(input);
    if (!result.success) throw result.error;
    return result.data as Row;
  }

  /** Column values for the validated input (only the writable fields it contains). */
  private columnValues(input: Row): Row {
    const values: Row = {};
    const holdingColumn = this.decl.tenancy.holdingColumn;
    for (const [name, field] of this.table.fieldEntries) {
      if (!field.writable || !(name in input)) continue;
      // The organisation column is set by the tenancy rule (assignHolding) alone.
      if (field.kind === 'reference' && field.column === holdingColumn) continue;
      if (field.kind === 'column' || field.kind === 'reference') values[this.key(field.column)] = input[name] ?? null;
    }
    return values;
  }

  /** Every referenced record must exist and be visible to the principal; else a 422 on that field. */
  private async checkReferences(principal: Principal, input: Row, tx: DbOrTx) {
    const violations: Violation[] = [];
    for (const [name, field] of this.table.fieldEntries) {
      if (!field.writable || (field.kind !== 'reference' && field.kind !== 'references') || input[name] === undefined || input[name] === null) continue;
      const wanted = field.kind === 'reference' ? [input[name] as number] : (input[name] as number[]);
      const target = this.registry.get((field as ReferenceField | ReferencesField).target);
      const visible = await target.visibleIds(principal, wanted, tx);
      if (wanted.some((id) => !visible.has(id))) {
        violations.push({ propertyPath: name, message: `${target.decl.label.singular} introuvable ou hors de votre périmètre.` });
      }
    }
    if (violations.length) throw new ValidationError(violations);
  }

  /** Fields declared unique (constraints.unique) keep their value to one record of the organisation: else a 422. */
  private async checkUnique(values: Row, existing: Row | undefined, tx: DbOrTx) {
    const violations: Violation[] = [];
    const holdingColumn = this.decl.tenancy.holdingColumn;
    for (const [name, field] of this.table.fieldEntries) {
      if (!field.constraints?.unique || field.kind !== 'column') continue;
      const value = values[this.key(field.column)];
      if (value === undefined || value === null) continue;
      const holdingId = holdingColumn ? (values[this.key(holdingColumn)] ?? existing?.[this.key(holdingColumn)]) : undefined;
      const [taken] = await tx
        .select({ id: this.decl.idColumn })
        .from(this.decl.table)
        .where(
          and(
            eq(field.column, value),
            holdingColumn ? (holdingId == null ? isNull(holdingColumn) : eq(holdingColumn, holdingId)) : undefined,
            existing ? sql`${this.decl.idColumn} <> ${existing[this.key(this.decl.idColumn)]}` : undefined,
            this.decl.deletion.mode === 'soft' ? isNull(this.decl.deletion.column) : undefined,
          ),
        )
        .limit(1);
      if (taken) violations.push({ propertyPath: name, message: field.constraints.unique });
    }
    if (violations.length) throw new ValidationError(violations);
  }

  private async writeLinks(input: Row, id: number, tx: DbOrTx) {
    for (const [name, field] of this.table.fieldEntries) {
      if (field.kind !== 'references' || !field.writable || !(name in input)) continue;
      const { table, ownerColumn, targetColumn } = field.link;
      const keys = columnKeys(table);
      await tx.delete(table).where(eq(ownerColumn, id));
      const targets = (input[name] as number[] | null) ?? [];
      if (targets.length) {
        await tx.insert(table).values(targets.map((target) => ({ [keys.get(ownerColumn)!]: id, [keys.get(targetColumn)!]: target })));
      }
    }
  }

  /** A record as the audit shows it: API names, references as ids, secrets masked. */
  private async auditView(row: Row, tx: DbOrTx): Promise<Row> {
    const view: Row = {};
    const id = Number(row[this.key(this.decl.idColumn)]);
    for (const [name, field] of this.table.fieldEntries) {
      if (field.kind === 'column' || field.kind === 'reference') {
        const value = row[this.key(field.column)];
        view[name] = field.secret ? (value == null ? null : MASK) : jsonValue(value);
      }
      if (field.kind === 'references') {
        const links = await tx.select({ target: field.link.targetColumn }).from(field.link.table).where(eq(field.link.ownerColumn, id));
        view[name] = links.map((l) => Number(l.target)).sort((a, b) => a - b);
      }
    }
    delete view.createdAt;
    delete view.updatedAt;
    return view;
  }

  private holdingOf(row: Row): number | null {
    if (this.decl.name === 'holdings') return Number(row[this.key(this.decl.idColumn)]);
    const column = this.decl.tenancy.holdingColumn;
    return column ? ((row[this.key(column)] as number | null) ?? null) : null;
  }

  private context(principal: Principal, tx: DbOrTx): WriteContext {
    return { app: this.app, principal, tx };
  }

  private async audit(tx: DbOrTx, principal: Principal, action: string, row: Row, changes: Changes | Row) {
    const labelField = this.decl.auditLabel ? this.decl.fields[this.decl.auditLabel] : undefined;
    const label = labelField?.kind === 'column' ? row[this.key(labelField.column)] : undefined;
    await recordAudit(tx, principal, {
      action: `${this.decl.auditName}.${action}`,
      entity: this.decl.name,
      entityId: Number(row[this.key(this.decl.idColumn)]),
      entityLabel: typeof label === 'string' ? label : null,
      holdingId: this.holdingOf(row),
      changes,
    });
  }

  private async inTransaction<T>(principal: Principal, fn: (tx: DbOrTx) => Promise<T>, tx?: DbOrTx): Promise<T> {
    if (tx) return fn(tx);
    const result = await this.app.db.transaction((t) => fn(t));
    this.afterCommit(principal);
    return result;
  }

  /**
   * A committed write may change who may do what (roles, centres, a status), and the totals of this resource (its
   * writer no longer reuses a count made before it). Other writes (a PEC file) keep the principals: clearing them on
   * each would reload every user's at their next request.
   */
  private afterCommit(principal: Principal) {
    if (this.writesPrincipals) this.app.principals.clear();
    this.counts.noteWrite(principal);
  }

  /** `outerTx`: create inside the caller's transaction (an all-or-nothing import of several records). */
  async create(principal: Principal, body: unknown, outerTx?: DbOrTx): Promise<number> {
    const { decl } = this;
    if (decl.readOnly || decl.creatable === false) throw forbidden('Cette ressource ne peut pas être créée.');
    requirePermission(principal, decl.permissions.create);
    const input = this.parse(this.schemas.create, this.normaliseBody(body));
    return this.inTransaction(
      principal,
      async (tx) => {
        const { values, ctx } = await this.valuesToWrite(principal, input, tx);
        const [created] = await tx.insert(decl.table).values(values).returning();
        const id = Number(created![this.key(decl.idColumn)]);
        await this.writeLinks(input, id, tx);
        await decl.hooks?.afterWrite?.(ctx, id, input, undefined);
        const after = await this.reader.find(principal, id, tx);
        const changes = diff({}, await this.auditView(after ?? created!, tx), this.secretNames());
        this.maskWrittenSecrets(input, changes);
        await this.audit(tx, principal, 'create', after ?? created!, changes);
        return id;
      },
      outerTx,
    );
  }

  /** The columns a create or an update writes: its organisation assigned, its references and uniqueness checked, beforeWrite run. */
  private async valuesToWrite(principal: Principal, input: Row, tx: DbOrTx, existing?: Row) {
    const { decl } = this;
    const values = this.columnValues(input);
    const holdingId = await decl.tenancy.assignHolding?.(principal, input, tx, existing);
    if (holdingId !== undefined && decl.tenancy.holdingColumn) values[this.key(decl.tenancy.holdingColumn)] = holdingId;
    await this.checkReferences(principal, input, tx);
    await this.checkUnique(values, existing, tx);
    const ctx = this.context(principal, tx);
    await decl.hooks?.beforeWrite?.(ctx, input, values, existing);
    return { values, ctx };
  }

  /**
   * A write-only secret given a new value shows as changed, both sides masked (its value never reaches the audit); its
   * "before" is null on a creation, and on a record that held none (`isSet`).
   */
  private maskWrittenSecrets(input: Row, changes: Changes, existing?: Row) {
    for (const [name, field] of this.table.fieldEntries) {
      if (!field.secret || field.kind !== 'writeOnly' || typeof input[name] !== 'string' || input[name] === '') continue;
      const held = existing !== undefined && (field.isSet?.(existing) ?? true);
      changes[name] = { before: held ? MASK : null, after: MASK };
    }
  }

  private secretNames() {
    return new Set(this.table.fieldEntries.filter(([, f]) => f.secret).map(([n]) => n));
  }

  /** The row to change: visible (else 404) and writable by this principal (else 403). */
  private async findForWrite(principal: Principal, id: number, tx: DbOrTx): Promise<Row> {
    const existing = await this.reader.find(principal, id, tx);
    if (!existing) throw notFound(`${this.decl.label.singular} introuvable.`);
    const writeScope = this.decl.tenancy.writeScope?.(principal);
    if (writeScope) {
      const [allowed] = await tx
        .select({ id: this.decl.idColumn })
        .from(this.decl.table)
        .where(and(eq(this.decl.idColumn, id), writeScope));
      if (!allowed) throw forbidden(`Vous ne pouvez pas modifier cet élément (${this.decl.label.singular.toLowerCase()}).`);
    }
    return existing;
  }

  /** PUT replaces the writable fields; PATCH (merge-patch) changes only those it names (see parseUpdate). */
  async update(principal: Principal, id: number, body: unknown, mode: 'put' | 'patch', tx?: DbOrTx, action = 'update'): Promise<void> {
    const { decl } = this;
    if (decl.readOnly || decl.updatable === false) throw forbidden('Cette ressource est en lecture seule.');
    requirePermission(principal, decl.permissions.update);
    await this.inTransaction(
      principal,
      async (t) => {
        // Another organisation's record is a 404 whatever the body says: look it up before reading the body.
        const existing = await this.findForWrite(principal, id, t);
        const input = this.parseUpdate(body, mode);
        const before = await this.auditView(existing, t);
        const { values, ctx } = await this.valuesToWrite(principal, input, t, existing);
        if ('updatedAt' in getTableColumns(decl.table)) values.updatedAt = new Date();
        if (Object.keys(values).length) await t.update(decl.table).set(values).where(eq(decl.idColumn, id));
        await this.writeLinks(input, id, t);
        await decl.hooks?.afterWrite?.(ctx, id, input, existing);
        const after = (await this.reader.find(principal, id, t)) ?? existing;
        const changes = diff(before, await this.auditView(after, t), this.secretNames());
        this.maskWrittenSecrets(input, changes, existing);
        await this.audit(t, principal, decl.hooks?.auditAction?.(input, existing) ?? action, after, changes);
      },
      tx,
    );
  }

  /**
   * PUT replaces the writable fields: those it omits take their default (empty). To-many references it omits keep
   * their links: they are relations edited on their own (the shop form saves its credentials by a PATCH afterwards).
   * PATCH (merge-patch) changes only the fields it names.
   */
  private parseUpdate(body: unknown, mode: 'put' | 'patch'): Row {
    const raw = this.normaliseBody(body);
    const parsed = this.parse(mode === 'put' ? this.schemas.update : this.patchSchema, raw);
    return Object.fromEntries(
      Object.entries(parsed).filter(([key]) => {
        if (key in raw) return true;
        if (mode === 'patch') return false; // defaults of the schema must not overwrite fields the patch does not name
        return this.decl.fields[key]?.kind !== 'references';
      }),
    );
  }

  async remove(principal: Principal, id: number, tx?: DbOrTx, action = 'delete'): Promise<void> {
    const { decl } = this;
    if (decl.readOnly || decl.deletion.mode === 'none') throw forbidden('Cet élément ne peut pas être supprimé.');
    requirePermission(principal, decl.permissions.delete);
    await this.inTransaction(
      principal,
      async (t) => {
        const existing = await this.findForWrite(principal, id, t);
        await decl.hooks?.beforeDelete?.(this.context(principal, t), existing);
        const before = await this.auditView(existing, t);
        if (decl.deletion.mode === 'soft') {
          const values: Row = { [this.key(decl.deletion.column)]: new Date() };
          await t.update(decl.table).set(values).where(eq(decl.idColumn, id));
          await this.audit(t, principal, action === 'delete' ? 'archive' : action, existing, diff(before, {}, this.secretNames()));
          return;
        }
        for (const reference of decl.deletion.mode === 'hard' ? (decl.deletion.refuseWhileReferenced ?? []) : []) {
          const [row] = await t
            .select({ n: count() })
            .from(reference.table)
            .where(and(eq(reference.column, id), reference.where));
          const n = Number(row?.n ?? 0);
          if (n > 0) throw conflict(reference.message(n));
        }
        await t.delete(decl.table).where(eq(decl.idColumn, id));
        await this.audit(t, principal, action, existing, diff(before, {}, this.secretNames()));
      },
      tx,
    );
  }

  /** All or nothing: each id is checked like a single call, the first refusal cancels the whole batch. */
  async bulk(principal: Principal, kind: 'delete' | 'update', body: unknown): Promise<number> {
    // A missing permission is refused once, before anything is read.
    requirePermission(principal, kind === 'delete' ? this.decl.permissions.delete : this.decl.permissions.update);
    const raw = (body && typeof body === 'object' ? body : {}) as Row;
    if (!Array.isArray(raw.ids) || raw.ids.length === 0) throw new ValidationError([{ propertyPath: 'ids', message: 'Sélectionnez au moins un élément.' }]);
    if (raw.ids.length > 500) throw new ValidationError([{ propertyPath: 'ids', message: 'Au plus 500 éléments à la fois.' }]);
    const ids = raw.ids.map((value) => idFromReference(value, this.decl.name));
    if (ids.some((id) => id === undefined)) throw new ValidationError([{ propertyPath: 'ids', message: 'Identifiant invalide dans la sélection.' }]);
    if (kind === 'update' && (!raw.data || typeof raw.data !== 'object' || Array.isArray(raw.data))) {
      throw new ValidationError([{ propertyPath: 'data', message: 'Les données à appliquer sont requises.' }]);
    }
    await this.app.db.transaction(async (tx) => {
      for (const id of new Set(ids as number[])) {
        try {
          if (kind === 'delete') await this.remove(principal, id, tx, 'bulk_delete');
          else await this.update(principal, id, raw.data, 'patch', tx, 'bulk_update');
        } catch (error) {
          throw withItem(error, id);
        }
      }
    });
    this.afterCommit(principal);
    return new Set(ids).size;
  }
}

/** Prefixes a batch error with the item it stopped at. */
function withItem(error: unknown, id: number): unknown {
  if (error instanceof ZodError) {
    return new ValidationError(error.issues.map((i) => ({ propertyPath: i.path.map(String).join('.'), message: `Élément ${id} : ${i.message}` })));
  }
  if (error instanceof ValidationError) return new ValidationError(error.violations.map((v) => ({ ...v, message: `Élément ${id} : ${v.message}` })));
  if (error instanceof ApiError) return new ApiError(error.status, `Élément ${id} : ${error.detail}`, error.extra);
  return error;
}
