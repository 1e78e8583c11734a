import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '#domain/limits';

/** The value once it has stopped changing for `delay` ms (the list searches, spec section 2: 500 ms). */
export function useDebounced<T>(value: T, delay = SEARCH_DEBOUNCE_MS) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}
