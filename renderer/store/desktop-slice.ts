/**
 * What the page asks of the desktop through main: open the logs or the gallery folder in the file
 * manager, copy a task id or a service's address (the window's own clipboard API is denied by its
 * permission policy).
 * Each says what went wrong in the status area; none returns anything to wait for.
 */
import type { StateCreator } from 'zustand';
import { t, type MessageKey } from '../i18n';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';

export interface DesktopSlice {
  openLogs(): Promise<void>;
  openGalleryFolder(): Promise<void>;
  /** Copies the id and says so, or says why it could not. */
  copyTaskId(taskId: string): Promise<void>;
  /** Copies a task's service address (its details show the service's name), and says so. */
  copyServiceAddress(address: string): Promise<void>;
}

export const createDesktopSlice: StateCreator<AppState, [], [], DesktopSlice> = (_set, get) => ({
  openLogs: () => call('app:openLogs').catch(get().showError),
  openGalleryFolder: () => call('gallery:openFolder').catch(get().showError),
  copyTaskId: (taskId) => copyText(get, taskId, 'tasks.copied', 'tasks.copyFailed'),
  copyServiceAddress: (address) =>
    copyText(get, address, 'tasks.details.addressCopied', 'tasks.details.addressCopyFailed'),
});

/** Copies `text` to the clipboard and says so (`copied`), or says why it could not (`failed`). */
async function copyText(
  get: () => AppState,
  text: string,
  copied: MessageKey,
  failed: MessageKey,
): Promise<void> {
  try {
    await call('app:copyText', { text });
    get().confirm(() => t(copied));
  } catch (error) {
    get().showError(toApiError(error, () => t(failed)));
  }
}

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends DesktopSlice {}
}
