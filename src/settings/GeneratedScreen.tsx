// The generated screens of one back-office entity (spec section 2, "Generic list screen"), from the API docs alone:
// the list (columns, filters, search, count, empty text from the declaration; types and references from the
// introspection) and, over it, the drawer with the form: /settings/{collection} lists, /settings/{collection}/create
// opens the creation drawer, /settings/{collection}/{id} the record's (also after a reload).
// An entity's folder src/resources/{collection}/ (optional) adds what the docs cannot say (src/resources/types.ts).
import { useQuery } from '@tanstack/react-query';
import type { Resource } from '@api-platform/api-doc-parser';
import { Suspense, useMemo, useState } from 'react';
import { DataTable, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { readAuthStore } from '../session';
import type { AdminEntity } from '../dataProvider/adminSchema';
import { LoadError } from '../admin/LoadError';
import { ListFrame, normalize } from '../admin/ListFrame';
import { ROW_CLASSES } from '../layout/rowStyles';
import { DateRangeFilter, ReferenceFilter, SelectFilter } from '../admin/filters';
import { fieldOf, useEntity, useResourceSchema, useRights, useSchemaAnalyzer } from '../admin/docs';
import { particularOf } from '../resources';
import type { Particular } from '../resources/types';
import { BulkActions } from './BulkActions';
import { Cell, getPath } from '../admin/cells';
import { useNouns } from './nouns';
import { LoadingPage } from '../layout/LoadingPage';
import { chunk, lazyChunk } from '../lazyChunk';

// The drawer with the form (inputs, zod rules, saves) loads when a record or the creation is opened, or when the user
// reaches for the list once its rows are shown (ListFrame's prepare): showing the list does not wait for it.
const loadDrawer = chunk(() => import('./RecordDrawer').then((m) => ({ default: m.RecordDrawer })));
const RecordDrawer = lazyChunk(loadDrawer);
const prepareDrawer = () => void loadDrawer().then(undefined, () => undefined);

export type ScreenMode = 'list' | 'create' | 'edit';

/** The numeric id of a record for its URL (/settings/holdings/12), whatever form its id has. */
export const urlIdOf = (record: RaRecord) => String(record.originId ?? String(record.id).split('/').pop());

/** One entity's screen in a mode; the same element in every route, so that the list stays mounted under its drawer. */
export function GeneratedScreen({ collection, mode }: { collection: string; mode: ScreenMode }) {
  const translate = useTranslate();
  const { entity, error: docsError } = useEntity(collection);
  const { schema, error: schemaError, refetch } = useResourceSchema(collection);
  const error = docsError ?? schemaError;
  if (error)
    return (
      <LoadError title={translate('pecflow.settings.list.errorTitle')} text={translate('pecflow.settings.list.errorText')} onRetry={() => void refetch()} />
    );
  if (!entity) return null;
  const Page = particularOf(collection).page;
  if (Page)
    return (
      <Suspense fallback={<LoadingPage />}>
        <Page />
      </Suspense>
    );
  return <EntityScreen key={collection} entity={entity} schema={schema} mode={mode} />;
}

function EntityScreen({ entity, schema, mode }: { entity: AdminEntity; schema: Resource | undefined; mode: ScreenMode }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const location = useLocation();
  const params = useParams();
  const particular = particularOf(entity.name);
  const { plural, say } = useNouns(entity.label);
  const rights = useRights(entity, schema);
  const base = `/settings/${entity.name}`;
  // The list's query (filters, sort, page) stays in the URL while a drawer is open and after it closes.
  const go = (path: string) => navigate({ pathname: path, search: location.search });
  const target: Identifier | 'create' | undefined = mode === 'create' ? 'create' : mode === 'edit' ? params.id : undefined;

  const list = entity.list;
  const holdingId = readAuthStore().user?.holdingId;
  const permanentFilter = useMemo(() => (list?.scopeToHolding && holdingId ? { holding: holdingId } : undefined), [list?.scopeToHolding, holdingId]);
  const columns = useColumns(entity, particular, schema);
  const searchable = useMemo(() => list?.columns ?? [], [list?.columns]);
  // The drawer is mounted from its first opening on (then it stays, to slide out when closed).
  const [drawerUsed, setDrawerUsed] = useState(target !== undefined);
  if (target !== undefined && !drawerUsed) setDrawerUsed(true);

  if (!list) return null;
  return (
    <>
      <ListFrame
        prepare={prepareDrawer}
        resource={entity.name}
        title={plural}
        countText={(n) => say('list.count', { smart_count: n })}
        createLabel={say('list.create')}
        onCreate={rights.create ? () => go(`${base}/create`) : undefined}
        searchPlaceholder={list.searchPlaceholder}
        paginated={list.paginated}
        sort={list.sort}
        matches={(record, needle) => searchable.some((column) => normalize(searchText(record, column)).includes(needle))}
        filter={permanentFilter}
        filters={<Filters entity={entity} particular={particular} />}
        bulkActions={
          schema && (rights.update || rights.delete) ? (ids) => <BulkActions entity={entity} schema={schema} rights={rights} selectedIds={ids} /> : undefined
        }
        emptyText={list.empty ?? translate('pecflow.settings.list.empty')}
        rowClick={(_id, record) => {
          go(`${base}/${urlIdOf(record)}`);
          return false;
        }}
      >
        {columns.map((column) => (
          <DataTable.Col
            key={column.name}
            source={column.sortKey ?? column.name}
            label={column.label}
            disableSort={!column.sortKey}
            cellClassName={column.nowrap ? ROW_CLASSES.nowrap : undefined}
            render={(record: RaRecord) => <Cell entity={entity} particular={particular} schema={schema} column={column.name} record={record} />}
          />
        ))}
      </ListFrame>
      {schema && drawerUsed && (
        <Suspense fallback={null}>
          <RecordDrawer entity={entity} particular={particular} schema={schema} target={target} onClose={() => go(base)} />
        </Suspense>
      )}
    </>
  );
}

/** The text a column shows, for the browser-side search of an unpaginated list (an embedded reference: its name). */
function searchText(record: RaRecord, column: string) {
  const value = getPath(record, column);
  if (value && typeof value === 'object')
    return Object.values(value as Record<string, unknown>)
      .filter((v) => typeof v === 'string')
      .join(' ');
  return value;
}

const EMAIL = 'https://schema.org/email';

interface Column {
  name: string;
  label: string;
  /** Kept on one line (an e-mail address): on a phone the table scrolls instead of cutting it. */
  nowrap?: boolean;
  /** The order key when the API sorts by it. */
  sortKey?: string;
}

function useColumns(entity: AdminEntity, particular: Particular, schema: Resource | undefined): Column[] {
  const analyzer = useSchemaAnalyzer();
  // Sortable columns: the order[...] keys of the collection's search template.
  const { data: orderKeys = [] } = useQuery({
    queryKey: ['pecflow', 'orderKeys', entity.name],
    queryFn: () => analyzer.getOrderParametersFromSchema(schema!),
    enabled: !!schema,
    staleTime: Infinity,
  });
  return (entity.list?.columns ?? []).map((name) => {
    const own = particular.cells?.[name]?.sortBy;
    const key = own === false ? undefined : (own ?? name);
    return {
      name,
      label: entity.fields[name.split('.')[0]!]?.label ?? name,
      sortKey: key && orderKeys.includes(key) ? key : undefined,
      nowrap: fieldOf(schema, name)?.id === EMAIL,
    };
  });
}

/** The declared filters (a choice among the field's choices, a reference's records, a date range), then the entity's own. */
function Filters({ entity, particular }: { entity: AdminEntity; particular: Particular }) {
  const declared = entity.list?.filters ?? [];
  const own = Object.keys(particular.filters ?? {}).filter((field) => !declared.some((f) => f.field === field));
  const labelOf = (field: string) => entity.fields[field]?.label ?? field;
  return (
    <>
      {declared.map(({ field, kind }) => {
        const Own = particular.filters?.[field];
        if (Own) return <Own key={field} source={field} label={labelOf(field)} />;
        if (kind === 'dateRange') return <DateRangeFilter key={field} source={field} />;
        if (kind === 'reference') return <ReferenceChoice key={field} entity={entity} field={field} label={labelOf(field)} />;
        const choices = entity.fields[field]?.choices ?? [];
        return <SelectFilter key={field} source={field} label={labelOf(field)} options={choices.map((c) => ({ value: c.id, label: c.name }))} />;
      })}
      {own.map((field) => {
        const Own = particular.filters![field]!;
        return <Own key={field} source={field} label={labelOf(field)} />;
      })}
    </>
  );
}

/** A reference filter: the referenced collection from the introspection, its records by their display field. */
function ReferenceChoice({ entity, field, label }: { entity: AdminEntity; field: string; label: string }) {
  const analyzer = useSchemaAnalyzer();
  const { schema } = useResourceSchema(entity.name);
  const reference = fieldOf(schema, field)?.reference;
  if (!reference || typeof reference !== 'object') return null;
  return <ReferenceFilter source={field} label={label} reference={reference.name} optionText={analyzer.getFieldNameFromSchema(reference)} />;
}

/** Keeps the last value while it goes (a drawer's content while it slides out). */
export function useLast<T>(value: T | undefined) {
  const [last, setLast] = useState(value);
  // Adjusted during render: the next render already shows it.
  if (value !== undefined && value !== last) setLast(value);
  return value ?? last;
}
