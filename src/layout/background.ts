// Rendering in the background: React renders a transition in slices of a few milliseconds and lets the page respond
// between them, where an update from react-query or react-admin's stores renders at once in one long task.
import { useDeferredValue } from 'react';

/**
 * False on a component's first render, true once React has rendered it again in the background: a large subtree
 * (the shell, a list's frame) mounts in slices instead of inside the update that revealed it.
 */
export const useShownInBackground = () => useDeferredValue(true, false);
