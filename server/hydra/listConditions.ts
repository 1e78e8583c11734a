// A list query's filters, date ranges, default filters and search as the SQL condition of its rows.
import { and, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Principal } from '../auth/principal';
import { declared, type ListQuery } from './query';
import type { ResourceDeclaration } from './types';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const INT4_MAX = 2_147_483_647;

/** A query value converted to the column's type; undefined when it cannot match anything. */
function filterValue(column: AnyPgColumn, value: string): unknown {
  switch (column.dataType) {
    case 'number': {
      const iri = /^\/api\/[\w-]+\/(\d+)$/.exec(value);
      const n = Number(iri ? iri[1] : value);
      // An integer column cannot hold more than int4: a larger value matches nothing (rather than a database error).
      const max = column.columnType === 'PgInteger' || column.columnType === 'PgSerial' ? INT4_MAX : Number.MAX_SAFE_INTEGER;
      return Number.isSafeInteger(n) && Math.abs(n) <= max ? n : undefined;
    }
    case 'boolean':
      return ['true', '1'].includes(value) ? true : ['false', '0'].includes(value) ? false : undefined;
    default:
      return value;
  }
}

/** Whether yyyy-mm-dd names a day of the calendar. */
function isCalendarDay(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A date or date-time bound from the query; undefined (the bound is ignored) when unreadable or outside the years
 * 0001-9999: JavaScript reads years such as 99999 or -271821 that PostgreSQL refuses ("time zone displacement out of
 * range"), and no record is dated outside them anyway.
 */
function dateBound(value: string | undefined, endOfDay: boolean): Date | undefined {
  if (!value) return undefined;
  const onlyDate = /^\d{4}-\d{2}-\d{2}$/.test(value);
  // An impossible day (2026-02-31) is ignored like an unreadable one, not rolled over to the next month.
  if (onlyDate && !isCalendarDay(value)) return undefined;
  const date = new Date(onlyDate ? `${value}T00:00:00` : value);
  // A day given without a time covers the whole day when it is the upper bound.
  if (onlyDate && endOfDay) date.setDate(date.getDate() + 1);
  const year = date.getUTCFullYear(); // NaN when unreadable
  return year >= 1 && year <= 9999 ? date : undefined;
}

/** The rows a list query names among those `visibility` lets the reader see. */
export function listConditions(decl: ResourceDeclaration, visibility: SQL | undefined, query: ListQuery, principal: Principal): SQL | undefined {
  const conditions: (SQL | undefined)[] = [visibility];
  const filters: Record<string, AnyPgColumn> = { id: decl.idColumn, ...decl.filters };
  for (const [key, values] of query.filters) {
    // holdingId=1 and holding=/api/holdings/1 name the same filter.
    const condition = declared(decl.conditionFilters, key);
    if (condition) {
      // Several values of one filter mean any of them, as for the column filters (inArray).
      conditions.push(or(...values.map((value) => condition(value, principal))));
      continue;
    }
    const column = declared(filters, key) ?? (key.endsWith('Id') ? declared(filters, key.slice(0, -2)) : undefined);
    if (!column) continue;
    const accepted = values.map((v) => filterValue(column, v)).filter((v) => v !== undefined);
    conditions.push(accepted.length ? inArray(column, accepted) : sql`false`);
  }
  for (const [key, range] of query.ranges) {
    const column = declared(decl.rangeFilters, key);
    if (!column) continue;
    const after = dateBound(range.after, false);
    const before = dateBound(range.before, true);
    if (after) conditions.push(gte(column, after));
    if (before) conditions.push(lt(column, before));
  }
  for (const [key, value] of Object.entries(decl.defaultFilters ?? {})) {
    const condition = declared(decl.conditionFilters, key);
    if (condition && !query.filters.has(key)) conditions.push(condition(value, principal));
  }
  if (query.search && decl.searchCondition) conditions.push(decl.searchCondition(query.search));
  else if (query.search && decl.search?.length) {
    const pattern = `%${escapeLike(query.search.toLowerCase())}%`;
    conditions.push(or(...decl.search.map((column) => sql`unaccent(lower(${column})) like unaccent(${pattern})`)));
  }
  return and(...conditions);
}
