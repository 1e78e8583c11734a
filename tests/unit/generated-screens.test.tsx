// The generated screens from the API docs alone: an entity no code of the application knows ("Télescopes", declared
// here and nowhere else) gets its settings tab, list (columns, labels, choices, filter, count, empty text) and drawer
// form (layout, defaults, choices, a reference picker, its declared rules with their French messages), and saves.
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { integer, pgTable, text as textColumn } from 'drizzle-orm/pg-core';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { reference, text } from '../../server/hydra/fields';
import { holdingOwned } from '../../server/hydra/tenancy';
import type { ResourceDeclaration } from '../../server/hydra/types';
import { holdingsResource } from '../../server/resources/holdings';
import { location, parseDocs, renderSettings, testProvider, type Docs } from './settings/harness';

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 10_000 });

const telescopes = pgTable('telescopes', {
  id: integer('id').primaryKey(),
  name: textColumn('name').notNull(),
  serial: textColumn('serial').notNull(),
  kind: textColumn('kind').notNull(),
  site: textColumn('site'),
  holdingId: integer('holding_id'),
});

/** A declaration as a developer adds one: nothing else in the application names this entity. */
const telescopesResource: ResourceDeclaration = {
  name: 'telescopes',
  className: 'Telescope',
  label: { singular: 'Télescope', plural: 'Télescopes' },
  auditName: 'telescope',
  table: telescopes,
  idColumn: telescopes.id,
  fields: {
    name: text(telescopes.name, {
      required: true,
      iri: 'name',
      label: 'Désignation',
      constraints: { min: 3, message: 'La désignation doit contenir au moins 3 caractères' },
    }),
    serial: text(telescopes.serial, {
      required: true,
      label: 'N° de série',
      constraints: { pattern: '^T-\\d{4}$', message: 'Le numéro de série a la forme T-0000' },
    }),
    kind: text(telescopes.kind, {
      required: true,
      label: 'Type',
      choices: [
        { id: 'optical', name: 'Optique' },
        { id: 'radio', name: 'Radio' },
      ],
    }),
    site: text(telescopes.site, { label: 'Site' }),
    holding: reference('holdings', telescopes.holdingId, { embed: ['name'], label: 'Organisation' }),
  },
  permissions: {
    view: 'settings.telescopes.view',
    create: 'settings.telescopes.create',
    update: 'settings.telescopes.update',
    delete: 'settings.telescopes.delete',
  },
  tenancy: holdingOwned(telescopes.holdingId),
  settingsTab: { position: 1 },
  list: {
    columns: ['name', 'serial', 'kind', 'holding'],
    filters: [{ field: 'kind', kind: 'choice' }],
    searchPlaceholder: 'Rechercher un télescope...',
    empty: 'Aucun télescope',
  },
  form: { fields: ['name', 'serial', 'kind', 'holding', 'site'], fullWidth: ['site'], defaults: { kind: 'radio' } },
  order: { name: telescopes.name, id: telescopes.id },
  defaultOrder: ['name', 'asc'],
  deletion: { mode: 'hard' },
};

let docs: Docs;
beforeAll(async () => {
  docs = await parseDocs([telescopesResource, holdingsResource]);
});
afterEach(cleanup);
afterAll(() => vi.unstubAllGlobals());

const holding = (id: number, name: string) => ({ '@id': `/api/holdings/${id}`, id: `/api/holdings/${id}`, originId: String(id), name, status: 'Active' });
const telescope = (id: number, name: string, kind: string) => ({
  '@id': `/api/telescopes/${id}`,
  id: `/api/telescopes/${id}`,
  originId: String(id),
  name,
  serial: `T-000${id}`,
  kind,
  site: null,
  holding: { '@id': '/api/holdings/1', id: 1, name: 'Observatoire du Pic' },
});

test('a made-up entity gets its tab, its list and its form from the docs alone, and is created', async () => {
  const provider = testProvider(docs, {
    telescopes: [telescope(1, 'Grand réfracteur', 'optical'), telescope(2, 'Antenne Nançay', 'radio')],
    holdings: [holding(1, 'Observatoire du Pic'), holding(2, 'Observatoire de Haute-Provence')],
  });
  renderSettings('/settings', provider, ['settings.telescopes.view', 'settings.telescopes.create', 'settings.holdings.view']);

  // The tab, first by its position, and the settings page leads to it.
  expect(await screen.findByRole('tab', { name: 'Télescopes' })).toBeInTheDocument();
  expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Télescopes', 'Organisations']);
  await waitFor(() => expect(location.current).toMatch(/^\/settings\/telescopes/));

  // The list: the declared columns by their labels, a choice by its French name, an embedded reference by its name.
  const list = await screen.findByTestId('list-telescopes');
  expect(await within(list).findByText('2 télescopes trouvés')).toBeInTheDocument();
  expect(within(list).getByRole('heading', { name: 'Télescopes' })).toBeInTheDocument();
  expect(
    within(list)
      .getAllByRole('columnheader')
      .map((h) => h.textContent),
  ).toEqual(['Désignation', 'N° de série', 'Type', 'Organisation']);
  const rows = within(list).getAllByTestId('list-row');
  expect(rows[0]).toHaveTextContent('Grand réfracteur');
  expect(rows[0]).toHaveTextContent('Optique');
  expect(rows[0]).toHaveTextContent('Observatoire du Pic');
  expect(within(list).getByRole('searchbox', { name: 'Rechercher' })).toHaveAttribute('placeholder', 'Rechercher un télescope...');

  // The declared filter offers the choices by their French names and filters on the server.
  await userEvent.click(within(list).getByRole('combobox', { name: /^Type/ }));
  await userEvent.click(await screen.findByRole('option', { name: 'Radio' }));
  await waitFor(() => expect(provider.getList).toHaveBeenLastCalledWith('telescopes', expect.objectContaining({ filter: { kind: 'radio' } })));
  expect(await within(list).findByText('1 télescope trouvé')).toBeInTheDocument();

  // The form: 'Nouveau télescope', the declared order and defaults, the rules and their messages from the docs.
  await userEvent.click(within(list).getByRole('button', { name: 'Nouveau télescope' }));
  await waitFor(() => expect(location.current).toMatch(/^\/settings\/telescopes\/create/));
  const drawer = await screen.findByTestId('resource-drawer');
  expect(within(drawer).getByRole('heading', { name: 'Nouveau télescope' })).toBeInTheDocument();
  const labels = [...drawer.querySelectorAll('.resource-form label')].map((label) => label.textContent?.replace(/\s*\*$/, ''));
  expect(labels).toEqual(['Désignation', 'N° de série', 'Type', 'Organisation', 'Site']);
  expect(within(drawer).getByRole('combobox', { name: /^Type/ })).toHaveTextContent('Radio');
  await userEvent.type(within(drawer).getByRole('textbox', { name: 'Désignation' }), 'Té');
  await userEvent.type(within(drawer).getByRole('textbox', { name: 'N° de série' }), '42');
  await userEvent.click(within(drawer).getByRole('button', { name: 'Créer' }));
  expect(await within(drawer).findByText('La désignation doit contenir au moins 3 caractères')).toBeInTheDocument();
  expect(within(drawer).getByText('Le numéro de série a la forme T-0000')).toBeInTheDocument();
  expect(provider.create).not.toHaveBeenCalled();

  await userEvent.type(within(drawer).getByRole('textbox', { name: 'Désignation' }), 'lescope solaire');
  const serial = within(drawer).getByRole('textbox', { name: 'N° de série' });
  await userEvent.clear(serial);
  await userEvent.type(serial, 'T-2026');
  await userEvent.click(within(drawer).getByRole('combobox', { name: /^Organisation/ }));
  await userEvent.click(await screen.findByRole('option', { name: 'Observatoire de Haute-Provence' }));
  await userEvent.click(within(drawer).getByRole('button', { name: 'Créer' }));
  await waitFor(() =>
    expect(provider.create).toHaveBeenCalledWith(
      'telescopes',
      expect.objectContaining({ data: { name: 'Télescope solaire', serial: 'T-2026', kind: 'radio', holding: '/api/holdings/2' } }),
    ),
  );
  expect(await screen.findByText('Télescope créé avec succès')).toBeInTheDocument();
  await waitFor(() => expect(screen.queryByTestId('resource-drawer')).not.toBeInTheDocument());
  expect(location.current).toMatch(/^\/settings\/telescopes(\?|$)/);
});

test('without the view permission of its declaration, the tab is not offered', async () => {
  renderSettings('/settings/telescopes', testProvider(docs, { holdings: [holding(1, 'Observatoire du Pic')] }), ['settings.holdings.view']);
  expect(await screen.findByRole('tab', { name: 'Organisations' })).toBeInTheDocument();
  expect(screen.queryByRole('tab', { name: 'Télescopes' })).not.toBeInTheDocument();
  await waitFor(() => expect(location.current).toMatch(/^\/settings\/holdings/));
});
