/**
 * What the window says about what just happened, in one status area at the foot of the window
 * (features/shell/status-area.tsx): confirmations of actions that worked ("Image copied."), with
 * a way back when there is one (Undo), errors of actions that failed, and the progress of a long
 * action. The area shows one at a time, the newest; a confirmation goes after a few seconds, an
 * error stays until dismissed, at most a few are kept. Words are kept as a function of the
 * language shown, so a message already on screen follows a change of language.
 */
import type { StateCreator } from 'zustand';
import { toApiError } from '../lib/api';
import type { AppState } from './app-state';

/** Words to show: a sentence as it reads now, or a function that words it in the shown language. */
export type Words = string | (() => string);

/** The words in the language shown now. */
export function wordsOf(words: Words): string {
  return typeof words === 'function' ? words() : words;
}

/** A button on a confirmation that takes the action back ("Undo"). */
export interface ConfirmationAction {
  readonly label: Words;
  readonly run: () => void;
}

/** One thing the status area can say. */
export interface StatusEntry {
  readonly id: number;
  readonly kind: 'done' | 'error';
  readonly text: Words;
  /** An error's technical detail, shown on demand. */
  readonly detail?: string;
  /** A way back, shown as a button (the entry then stays longer). */
  readonly action?: ConfirmationAction;
  /**
   * A job under way (a delete, its Undo): how far it is. The entry stays while it runs and is
   * said again, as the newest, when it ends (see {@link StatusSlice.startJob}).
   */
  readonly progress?: { readonly done: number; readonly total: number };
  /** When a job's entry said what the job did (its time to go counts from then). */
  readonly endedAt?: number;
}

/** A change to a job's entry; `finished` ends its progress and makes it the newest entry. */
export interface JobPatch {
  readonly text?: Words;
  readonly done?: number;
  readonly total?: number;
  /** A new way back, or null for none (a spent Undo is not offered). */
  readonly action?: ConfirmationAction | null;
  readonly finished?: boolean;
}

/** A long action under way: its words, and how far it has come (of `total`). */
export interface StatusProgress {
  readonly id: number;
  readonly text: Words;
  readonly done: number;
  readonly total: number;
}

/** Kept at most, newest last: older ones are dropped (nothing piles up). */
const MAX_ENTRIES = 4;

export interface StatusSlice {
  statusEntries: StatusEntry[];
  statusProgress: StatusProgress | null;
  /** Says `message` worked (a repeat replaces the older one, so it is said again); its id. */
  confirm(message: Words, action?: ConfirmationAction): number;
  /**
   * Starts an entry for a job that runs a while (a delete): what it does, how far (of `total`),
   * and its way back, from its first moment; answers its id (for {@link updateJob}).
   */
  startJob(text: Words, total: number, action?: ConfirmationAction): number;
  /** Changes a job's entry; one gone meanwhile (dismissed, crowded out) comes back with its words. */
  updateJob(id: number, patch: JobPatch): void;
  /** Shows any thrown value as a sentence (ApiError's, in the shown language, or a generic one). */
  showError(error: unknown): void;
  dismissStatus(id: number): void;
  /** Starts saying how far an action is; answers its id (for {@link stepProgress}). */
  startProgress(text: Words, total: number): number;
  stepProgress(id: number, done: number): void;
  endProgress(id: number): void;
}

let statusSeq = 0;

/**
 * Runs `work` with its progress said in the status area (shown once it has taken more than a
 * moment); `work` reports how many of `total` are done.
 */
export async function withProgress<T>(
  status: Pick<StatusSlice, 'startProgress' | 'stepProgress' | 'endProgress'>,
  text: Words,
  total: number,
  work: (step: (done: number) => void) => Promise<T>,
): Promise<T> {
  const id = status.startProgress(text, total);
  try {
    return await work((done) => status.stepProgress(id, done));
  } finally {
    status.endProgress(id);
  }
}

/**
 * The entries with `entry` added last: a confirmation something newer covers is gone (it said
 * its piece; it must not come back later), an entry with the same words is dropped, at most MAX.
 */
function withEntry(entries: readonly StatusEntry[], entry: StatusEntry): StatusEntry[] {
  const words = wordsOf(entry.text);
  // A job under way has not said its piece yet: it stays.
  const kept = entries.filter(
    (shown) =>
      shown.progress !== undefined || (shown.kind === 'error' && wordsOf(shown.text) !== words),
  );
  return [...kept, entry].slice(-MAX_ENTRIES);
}

/** The job's entry changed by `patch` (a finished one moved last), or made again from it. */
function withJob(entries: readonly StatusEntry[], id: number, patch: JobPatch): StatusEntry[] {
  const current = entries.find((entry) => entry.id === id);
  if (!current && patch.text === undefined) return [...entries];
  const base: StatusEntry = current ?? { id, kind: 'done', text: patch.text ?? '' };
  const progress =
    patch.finished === true
      ? undefined
      : {
          done: patch.done ?? base.progress?.done ?? 0,
          total: patch.total ?? base.progress?.total ?? 0,
        };
  const { action: _action, progress: _progress, ...rest } = base;
  const action = patch.action === undefined ? base.action : (patch.action ?? undefined);
  const next: StatusEntry = {
    ...rest,
    ...(patch.text === undefined ? {} : { text: patch.text }),
    ...(action ? { action } : {}),
    ...(progress ? { progress } : {}),
    ...(patch.finished === true ? { endedAt: Date.now() } : {}),
  };
  if (current && !patch.finished) return entries.map((entry) => (entry.id === id ? next : entry));
  return [...entries.filter((entry) => entry.id !== id), next].slice(-MAX_ENTRIES);
}

export const createStatusSlice: StateCreator<AppState, [], [], StatusSlice> = (set) => ({
  statusEntries: [],
  statusProgress: null,

  confirm(message, action) {
    statusSeq += 1;
    const entry: StatusEntry = {
      id: statusSeq,
      kind: 'done',
      text: message,
      ...(action ? { action } : {}),
    };
    set((state) => ({ statusEntries: withEntry(state.statusEntries, entry) }));
    return entry.id;
  },
  startJob(text, total, action) {
    statusSeq += 1;
    const entry: StatusEntry = {
      id: statusSeq,
      kind: 'done',
      text,
      progress: { done: 0, total },
      ...(action ? { action } : {}),
    };
    set((state) => ({ statusEntries: withEntry(state.statusEntries, entry) }));
    return entry.id;
  },
  updateJob(id, patch) {
    set((state) => ({ statusEntries: withJob(state.statusEntries, id, patch) }));
  },
  showError(error) {
    const problem = toApiError(error);
    statusSeq += 1;
    const entry: StatusEntry = {
      id: statusSeq,
      kind: 'error',
      text: () => problem.text(),
      ...(problem.detail ? { detail: problem.detail } : {}),
    };
    set((state) => ({ statusEntries: withEntry(state.statusEntries, entry) }));
  },
  dismissStatus(id) {
    set((state) => ({ statusEntries: state.statusEntries.filter((entry) => entry.id !== id) }));
  },
  startProgress(text, total) {
    statusSeq += 1;
    const id = statusSeq;
    set({ statusProgress: { id, text, done: 0, total } });
    return id;
  },
  stepProgress(id, done) {
    set((state) =>
      state.statusProgress?.id === id ? { statusProgress: { ...state.statusProgress, done } } : {},
    );
  },
  endProgress(id) {
    set((state) => (state.statusProgress?.id === id ? { statusProgress: null } : {}));
  },
});

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends StatusSlice {}
}
