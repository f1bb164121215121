/**
 * Settings › Library: exporting the library to one archive, importing an archive or a folder.
 * Main shows its own save and open dialogs (the page never names a path), sends progress as
 * `library:progress` and answers with a summary; one operation runs at a time.
 */
import type { StateCreator } from 'zustand';
import type {
  ExportSummaryView,
  ImportSummaryView,
  LibraryProgressView,
} from '../../shared/ipc/library-contract';
import { call, toApiError, type ApiError } from '../lib/api';
import type { AppState } from './app-state';

/** What the last operation did (nothing when the user cancelled main's dialog). */
export type LibraryOutcome =
  | { readonly kind: 'export'; readonly summary: ExportSummaryView }
  | { readonly kind: 'import'; readonly summary: ImportSummaryView };

export interface LibraryState {
  readonly busy: boolean;
  /** How far the operation under way is, once main said (null before, and after it ends). */
  readonly progress: LibraryProgressView | null;
  readonly outcome: LibraryOutcome | null;
  readonly error: ApiError | null;
}

export interface LibrarySlice {
  library: LibraryState;
  /** Exports the tasks named, or without ids the whole library, through main's save dialog. */
  libraryExport(localIds?: readonly string[]): Promise<void>;
  libraryImport(from: 'archive' | 'folder'): Promise<void>;
  /** Asks main to stop the operation under way (what it finished stays). */
  libraryCancel(): Promise<void>;
  libraryApplyProgress(progress: LibraryProgressView): void;
}

const IDLE: LibraryState = { busy: false, progress: null, outcome: null, error: null };

export const createLibrarySlice: StateCreator<AppState, [], [], LibrarySlice> = (set, get) => {
  const run = async (work: () => Promise<LibraryOutcome | null>): Promise<void> => {
    if (get().library.busy) return;
    set({ library: { ...IDLE, busy: true } });
    try {
      set({ library: { ...IDLE, outcome: await work() } });
    } catch (caught) {
      set({ library: { ...IDLE, error: toApiError(caught) } });
    }
  };
  return {
    library: IDLE,
    libraryExport: (localIds) =>
      run(async () => {
        const input = localIds ? { localIds: [...localIds] } : {};
        const { summary } = await call('library:export', input);
        return summary ? { kind: 'export', summary } : null;
      }),
    libraryImport: (from) =>
      run(async () => {
        const { summary } = await call('library:import', { from });
        return summary ? { kind: 'import', summary } : null;
      }),
    async libraryCancel() {
      // Nothing to say when it fails: the operation ends by itself, its summary says how.
      await call('library:cancel').catch(() => undefined);
    },
    libraryApplyProgress(progress) {
      const { library } = get();
      if (library.busy) set({ library: { ...library, progress } });
    },
  };
};
