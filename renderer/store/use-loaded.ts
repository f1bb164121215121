import { useEffect } from 'react';
import type { AppState } from './app-state';
import { useAppStore } from './app-store';

/**
 * A list the store reads from main (`list`), asked for again each time the component that shows
 * it mounts (`load`): a filter over the library shows what the library has now.
 */
export function useLoaded<T>(
  list: (state: AppState) => T,
  load: (state: AppState) => () => Promise<unknown>,
): T {
  const value = useAppStore(list);
  const loader = useAppStore(load);
  useEffect(() => {
    void loader();
  }, [loader]);
  return value;
}
