// A page's code loaded ahead (while the visitor types their credentials, or when pointing at the PEC list) shows in
// the first render that needs it: no loading page, no wait for React's throttle on a suspended boundary.
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { chunk, lazyChunk } from '../../src/lazyChunk';

afterEach(cleanup);

const Page = () => <p>La page</p>;
const shown = (Component: React.ComponentType) =>
  render(
    <Suspense fallback={<p>Chargement...</p>}>
      <Component />
    </Suspense>,
  );

test('a loaded chunk renders at once, without the loading state', async () => {
  const load = vi.fn(async () => ({ default: Page }));
  const loader = chunk(load);
  await loader();
  shown(lazyChunk(loader));
  expect(screen.getByText('La page')).toBeTruthy();
  expect(screen.queryByText('Chargement...')).toBeNull();
  expect(load).toHaveBeenCalledTimes(1);
});

test('a chunk not loaded yet shows the loading state, then the page; it is fetched once', async () => {
  let arrive!: (module: { default: typeof Page }) => void;
  const load = vi.fn(() => new Promise<{ default: typeof Page }>((resolve) => (arrive = resolve)));
  const loader = chunk(load);
  void loader();
  shown(lazyChunk(loader));
  expect(screen.getByText('Chargement...')).toBeTruthy();
  await act(async () => arrive({ default: Page }));
  expect(await screen.findByText('La page')).toBeTruthy();
  expect(load).toHaveBeenCalledTimes(1);
});

test('a failed load is tried again by the next call', async () => {
  const load = vi.fn<() => Promise<{ default: typeof Page }>>().mockRejectedValueOnce(new Error('réseau')).mockResolvedValue({ default: Page });
  const loader = chunk(load);
  await expect(Promise.resolve(loader())).rejects.toThrow('réseau');
  await expect(Promise.resolve(loader())).resolves.toEqual({ default: Page });
  expect(load).toHaveBeenCalledTimes(2);
});
