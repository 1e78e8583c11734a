// Code split into chunks loaded on demand, and shown without a loading state once they are loaded.
import { lazy, type ComponentType } from 'react';

/**
 * A chunk's loader, for `lazy` and for preloading. Once the chunk has loaded it is handed over by a thenable that calls
 * back at once: React's `lazy` then renders the page in the same pass instead of suspending, which would show the
 * loading page and hold the page back for React's 300 ms throttle on revealing a suspended boundary. A failed load
 * is tried again by the next call.
 */
export function chunk<M>(load: () => Promise<M>): () => PromiseLike<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  return () => {
    if (loaded) {
      const module = loaded;
      return { then: (resolve) => Promise.resolve(resolve ? resolve(module) : module) } as PromiseLike<M>;
    }
    loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
}

/** `lazy` over such a loader (React reads any thenable; its types ask for a Promise). */
export const lazyChunk = <P extends object>(load: () => PromiseLike<{ default: ComponentType<P> }>) =>
  lazy(load as () => Promise<{ default: ComponentType<P> }>);
