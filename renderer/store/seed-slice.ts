/**
 * A request used again: "Use this prompt" (the form takes the task's request as it was asked, its
 * options, seed and template among it: the same from a task row, its details and either image
 * viewer, which once filled only the prompt, model, size and quality an image lists), "Copy as
 * command" (main builds the `pictor generate …` and cURL lines of
 * a task's or the form's request, with `$SERVICE_API_KEY` for the key, and copies them itself:
 * the page names the task or sends the draft, never the text), "Use this seed" (the form
 * takes the task's request with the seed its service used, locked) and "Vary" (main sends the
 * task's request again as it ran, on its own service, with a seed it draws: the page names the
 * task, as for Rerun).
 */
import type { StateCreator } from 'zustand';
import { providerOf } from '../../shared/domain/providers';
import { ranRequest } from '../../shared/domain/ran-request';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { RequestInput } from '../../shared/ipc/contract';
import { announce } from '../components/live-region';
import { t } from '../i18n';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import { composeTarget } from './compose-model';
import { requestOf } from './compose-submit-actions';
import { resendTasks } from './task-resend';

export interface SeedSlice {
  /**
   * "Use this prompt": the task's request (options, seed, template) and service into the form; a
   * batch's `count` too. Every place that offers it comes here.
   */
  reuseTask(record: TaskRecord, count?: number): void;
  /** "Use this prompt" of an image: its task's record read from main first (null: gone). */
  reuseTaskOf(localId: string): Promise<boolean>;
  /** Has main copy the lines of a task's or a draft's request, and says so (or why not). */
  copyCommand(of: RequestInput<'tasks:copyCommand'>): Promise<void>;
  /** "Copy as command" of a task: its request as it ran (with its seed), on its own service. */
  copyTaskCommand(record: TaskRecord): Promise<void>;
  /** "Copy as command" of the form's draft; a draft that cannot be sent says why instead. */
  composeCopyCommand(): Promise<void>;
  /** The task's request, with the seed the service used, into the form (the seed locked). */
  useTaskSeed(record: TaskRecord): void;
  /**
   * The task's request again on its service, with a new seed; true when it was sent. Named by its
   * local id alone: a task's record or an image of it (offered where lib/can-vary.ts says).
   */
  tasksVary(task: { readonly localId: string }): Promise<boolean>;
  /** The task's record as main keeps it (the gallery's viewer reads its seed); null when gone. */
  taskRecordOf(localId: string): Promise<TaskRecord | null>;
}

export const createSeedSlice: StateCreator<AppState, [], [], SeedSlice> = (set, get) => ({
  async copyCommand(of) {
    try {
      await call('tasks:copyCommand', of);
      get().confirm(() => t('compose.command.copied'));
    } catch (error) {
      get().showError(toApiError(error, () => t('compose.command.copyFailed')));
    }
  },

  reuseTask(record, count) {
    get().reusePrompt(record.request, providerOf(record), count, record.template);
  },

  async reuseTaskOf(localId) {
    const record = await get().taskRecordOf(localId);
    if (record) get().reuseTask(record);
    return record !== null;
  },

  copyTaskCommand: (record) => get().copyCommand({ localId: record.localId }),

  async composeCopyCommand() {
    const state = get();
    const { request } = requestOf(state.composeDraft);
    if (request.prompt === '') {
      // No request without a prompt: the prompt says so, as Generate would have it say.
      set({ composeAttempted: true });
      get().requestFocus('prompt');
      return;
    }
    await get().copyCommand({
      request,
      target: composeTarget(state, state.composeDraft.provider),
    });
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

  async tasksVary(task) {
    try {
      // Main sends the task's request as it ran (a ComfyUI task: the graph it ran, not the one
      // imported under its model's name now), with a seed it draws.
      await resendTasks(get, [task.localId], 'each', { newSeed: true });
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
