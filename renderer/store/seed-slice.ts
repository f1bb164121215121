/**
 * A request used again: "Copy as command" (the `pictor generate …` and cURL lines main builds for
 * a task's or the form's request, with `$SERVICE_API_KEY` for the key), "Use this seed" (the form
 * takes the task's request with the seed its service used, locked) and "Vary" (the task's request
 * again, on its own service, with a new seed).
 */
import type { StateCreator } from 'zustand';
import { providerOf } from '../../shared/domain/providers';
import type { SubmitTarget } from '../../shared/domain/submit-target';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { GenerationRequest } from '../../shared/service/wire';
import { announce } from '../components/live-region';
import { t } from '../i18n';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import { composeTarget } from './compose-model';
import { randomSeed } from './compose-params';
import { requestOf } from './compose-submit-actions';

export interface SeedSlice {
  /** Copies the lines that send `request` to `target` again, and says so (or why not). */
  copyCommand(request: GenerationRequest, target: SubmitTarget): Promise<void>;
  /** "Copy as command" of a task: its request as it ran (with its seed), on its own service. */
  copyTaskCommand(record: TaskRecord): Promise<void>;
  /** "Copy as command" of the form's draft; a draft that cannot be sent says why instead. */
  composeCopyCommand(): Promise<void>;
  /** The task's request, with the seed the service used, into the form (the seed locked). */
  useTaskSeed(record: TaskRecord): void;
  /** The task's request again on its service, with a new seed; true when it was sent. */
  tasksVary(record: TaskRecord): Promise<boolean>;
  /** The task's record as main keeps it (the gallery's viewer reads its seed); null when gone. */
  taskRecordOf(localId: string): Promise<TaskRecord | null>;
}

/** Where a task was sent: its service at its address, as "Submit again" sends it. */
function taskTarget(record: TaskRecord): SubmitTarget {
  return { provider: providerOf(record), endpoint: record.endpoint };
}

/** The task's request as it ran: with the seed the service says it used, when it says one. */
function ranRequest(record: TaskRecord): GenerationRequest {
  const seed = record.seed ?? record.request.seed;
  return { ...record.request, ...(seed === undefined ? {} : { seed }) };
}

export const createSeedSlice: StateCreator<AppState, [], [], SeedSlice> = (set, get) => ({
  async copyCommand(request, target) {
    try {
      const lines = await call('tasks:command', { request, target });
      const text = lines.curl === null ? lines.generate : `${lines.generate}\n${lines.curl}`;
      await call('app:copyText', { text });
      get().confirm(() => t('compose.command.copied'));
    } catch (error) {
      get().showError(toApiError(error, () => t('compose.command.copyFailed')));
    }
  },

  copyTaskCommand: (record) => get().copyCommand(ranRequest(record), taskTarget(record)),

  async composeCopyCommand() {
    const state = get();
    const { request } = requestOf(state.composeDraft);
    if (request.prompt === '') {
      // No request without a prompt: the prompt says so, as Generate would have it say.
      set({ composeAttempted: true });
      get().requestFocus('prompt');
      return;
    }
    await get().copyCommand(request, composeTarget(state, state.composeDraft.provider));
  },

  async taskRecordOf(localId) {
    const item = await call('tasks:get', { localId });
    return item?.record ?? null;
  },

  useTaskSeed(record) {
    get().reusePrompt(ranRequest(record), providerOf(record));
    get().tasksOpenDetails(null);
    get().requestFocus('prompt');
  },

  async tasksVary(record) {
    const request = { ...record.request, seed: randomSeed() };
    try {
      const items = await call('tasks:submit', { request, target: taskTarget(record), count: 1 });
      get().tasksInsert(items);
      announce(t('tasks.varySent'));
      return true;
    } catch (error) {
      get().showError(error);
      return false;
    }
  },
});

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends SeedSlice {}
}
