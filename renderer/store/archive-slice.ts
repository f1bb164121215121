/**
 * Settings › Library: exporting the library to one archive, importing an archive or a folder.
 * Main shows its own save and open dialogs (the page never names a path), sends progress as
 * `archive:progress` and answers with a summary; one operation runs at a time.
 */
import type { StateCreator } from 'zustand';
import type {
  ExportSummaryView,
  ImportSummaryView,
  ArchiveProgressView,
} from '../../shared/ipc/archive-contract';
import { call, toApiError, type ApiError } from '../lib/api';
import type { AppState } from './app-state';

/** What the last operation did (nothing when the user cancelled main's dialog). */
export type ArchiveOutcome =
  | { readonly kind: 'export'; readonly summary: ExportSummaryView }
  | { readonly kind: 'import'; readonly summary: ImportSummaryView };

export interface ArchiveState {
  readonly busy: boolean;
  /** How far the operation under way is, once main said (null before, and after it ends). */
  readonly progress: ArchiveProgressView | null;
  readonly outcome: ArchiveOutcome | null;
  readonly error: ApiError | null;
}

export interface ArchiveSlice {
  archive: ArchiveState;
  /** Exports the tasks named, or without ids the whole library, through main's save dialog. */
  archiveExport(localIds?: readonly string[]): Promise<void>;
  archiveImport(from: 'archive' | 'folder'): Promise<void>;
  /** Asks main to stop the operation under way (what it finished stays). */
  archiveCancel(): Promise<void>;
  archiveApplyProgress(progress: ArchiveProgressView): void;
}

const IDLE: ArchiveState = { busy: false, progress: null, outcome: null, error: null };

export const createArchiveSlice: StateCreator<AppState, [], [], ArchiveSlice> = (set, get) => {
  const run = async (work: () => Promise<ArchiveOutcome | null>): Promise<void> => {
    if (get().archive.busy) return;
    set({ archive: { ...IDLE, busy: true } });
    try {
      set({ archive: { ...IDLE, outcome: await work() } });
    } catch (caught) {
      set({ archive: { ...IDLE, error: toApiError(caught) } });
    }
  };
  return {
    archive: IDLE,
    archiveExport: (localIds) =>
      run(async () => {
        const input = localIds ? { localIds: [...localIds] } : {};
        const { summary } = await call('archive:export', input);
        return summary ? { kind: 'export', summary } : null;
      }),
    archiveImport: (from) =>
      run(async () => {
        const { summary } = await call('archive:import', { from });
        return summary ? { kind: 'import', summary } : null;
      }),
    async archiveCancel() {
      // Nothing to say when it fails: the operation ends by itself, its summary says how.
      await call('archive:cancel').catch(() => undefined);
    },
    archiveApplyProgress(progress) {
      const { archive } = get();
      if (archive.busy) set({ archive: { ...archive, progress } });
    },
  };
};

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends ArchiveSlice {}
}
