/**
 * The app's own updates as main reports them (`updates:changed`): asked once at start, then
 * followed. The page only asks (check, download, restart, open the download); main decides
 * everything else.
 */
import type { StateCreator } from 'zustand';
import type { UpdateState } from '../../shared/domain/update-state';
import { call } from '../lib/api';
import type { AppState } from './app-state';

/** What the page may ask of main's updater; a refusal is shown in the status area. */
type UpdateRequest =
  'updates:check' | 'updates:download' | 'updates:restart' | 'updates:openDownload';

export interface UpdatesSlice {
  /** `null` until main first answers or tells. */
  updates: UpdateState | null;
  /** Asks main for the state once (an event that arrived first is newer and stays). */
  updatesLoad(): Promise<void>;
  /** Takes the state main sent with `updates:changed`. */
  updatesApply(state: UpdateState): void;
  updatesCheck(): Promise<void>;
  updatesDownload(): Promise<void>;
  /** Restarts into the downloaded version (running tasks resume after it). */
  updatesRestart(): Promise<void>;
  /** Opens the new version's download in the browser (a copy that cannot install it). */
  updatesOpenDownload(): Promise<void>;
}

export const createUpdatesSlice: StateCreator<AppState, [], [], UpdatesSlice> = (set, get) => {
  const ask = (request: UpdateRequest) => (): Promise<void> =>
    call(request).then(() => undefined, get().showError);
  return {
    updates: null,
    async updatesLoad() {
      try {
        const first = await call('updates:getState');
        if (get().updates === null) set({ updates: first });
      } catch {
        // No answer: the state arrives with the next `updates:changed`, and nothing is offered.
      }
    },
    updatesApply(updates) {
      set({ updates });
    },
    updatesCheck: ask('updates:check'),
    updatesDownload: ask('updates:download'),
    updatesRestart: ask('updates:restart'),
    updatesOpenDownload: ask('updates:openDownload'),
  };
};

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends UpdatesSlice {}
}
