/**
 * The ComfyUI workflows kept as models (`workflows:` channels): their names and maps as main
 * lists them, read when first needed (Settings' ComfyUI entry, the compose form on ComfyUI) and
 * again after a save or a removal. The import's own steps (pick, map, name) are the Settings
 * form's (features/settings/use-workflow-import.ts).
 */
import type { StateCreator } from 'zustand';
import type { RequestInput, RequestOutput } from '../../shared/ipc/contract';
import { ApiError, call } from '../lib/api';
import type { AppState } from './app-state';
import { sameAgain } from './same-again';

export type KeptWorkflow = RequestOutput<'workflows:list'>['workflows'][number];
export type WorkflowPick = NonNullable<RequestOutput<'workflows:pick'>['pick']>;

export interface WorkflowsSlice {
  /** The kept workflows, by name; null until first read. */
  comfyWorkflows: readonly KeptWorkflow[] | null;
  /** Main's refusal of the last list or removal, or null. */
  comfyWorkflowsError: ApiError | null;
  workflowsLoad(): Promise<void>;
  /** Main's open dialog and its check of the file: the inputs to map, or null (cancelled). Throws main's refusal. */
  workflowsPick(): Promise<WorkflowPick | null>;
  /**
   * Keeps the picked workflow with its map under its name, then lists again; the name it is kept
   * under (the one the book had, when it differs only in case). Throws main's refusal.
   */
  workflowsSave(input: RequestInput<'workflows:save'>): Promise<string>;
  /** Forgets one; true when it is gone. */
  workflowsRemove(name: string): Promise<boolean>;
}

type Creator = StateCreator<AppState, [], [], WorkflowsSlice>;

export const createWorkflowsSlice: Creator = (set, get) => ({
  comfyWorkflows: null,
  comfyWorkflowsError: null,
  async workflowsLoad() {
    try {
      const { workflows } = await call('workflows:list');
      set({
        comfyWorkflows: sameAgain(get().comfyWorkflows, workflows),
        comfyWorkflowsError: null,
      });
    } catch (error) {
      if (error instanceof ApiError) set({ comfyWorkflowsError: error });
      else throw error;
    }
  },
  async workflowsPick() {
    return (await call('workflows:pick')).pick;
  },
  async workflowsSave(input) {
    const { name } = await call('workflows:save', input);
    await get().workflowsLoad();
    return name;
  },
  async workflowsRemove(name) {
    try {
      await call('workflows:remove', { name });
    } catch (error) {
      if (error instanceof ApiError) {
        set({ comfyWorkflowsError: error });
        return false;
      }
      throw error;
    }
    await get().workflowsLoad();
    return true;
  },
});

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends WorkflowsSlice {}
}
