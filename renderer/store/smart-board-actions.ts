/**
 * A smart board's own actions (the sidebar's menu on it): a new name, or its deletion. A smart
 * board is a saved filter: deleting it deletes the filter only, never an image. When it is the
 * one the gallery shows, the gallery follows (its new name, or every image after a delete).
 */
import type { StateCreator } from 'zustand';
import { foldName } from '../../shared/domain/triage';
import { t } from '../i18n';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';

type Set = Parameters<StateCreator<AppState>>[0];
type Get = () => AppState;

/** Whether the gallery shows the smart board `name` now. */
function shown(get: Get, name: string): boolean {
  const current = get().galleryFilters.smart;
  return current !== '' && foldName(current) === foldName(name);
}

/**
 * A change of the smart boards through main: what `work` says it did is confirmed and the library
 * read again. Null, or the refusal's sentence for the dialog that asked.
 */
export async function smartChange(
  get: Get,
  work: () => Promise<() => string>,
): Promise<string | null> {
  try {
    get().confirm(await work());
    await get().triageLoadLibrary();
    return null;
  } catch (error) {
    return toApiError(error).message;
  }
}

export function smartBoardActions(
  _set: Set,
  get: Get,
): Pick<AppState, 'triageRenameSmart' | 'triageDeleteSmart'> {
  return {
    triageRenameSmart: (name, newName) =>
      smartChange(get, async () => {
        const renamed = await call('smart:rename', { name, newName });
        if (shown(get, name)) get().gallerySetFilters({ smart: renamed.name });
        return () => t('triage.smart.renamed', { name: renamed.name });
      }),
    triageDeleteSmart: async (name) => {
      try {
        await call('smart:delete', { name });
        if (shown(get, name)) get().gallerySetFilters({ smart: '' });
        get().confirm(() => t('triage.smart.deleted', { name }));
        await get().triageLoadLibrary();
        return true;
      } catch (error) {
        get().showError(error);
        return false;
      }
    },
  };
}
