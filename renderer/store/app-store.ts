/** The one store of the renderer, combined from its slices (middleware only here, if ever). */
import { create } from 'zustand';
import type { AppState } from './app-state';
import { createCompareSlice } from './compare-slice';
import { createComposeSlice } from './compose-slice';
import { createCostsSlice } from './costs-slice';
import { createDesktopSlice } from './desktop-slice';
import { createSeedSlice } from './seed-slice';
import { createEditSlice } from './edit-slice';
import { createFormDraftsSlice } from './form-drafts';
import { createArchiveSlice } from './archive-slice';
import { createBoardsSlice } from './boards-slice';
import { createPromptHistorySlice } from './prompt-history-slice';
import { createRecordsSlice } from './records-slice';
import { evictingUnheld } from './record-holders';
import { createTemplatesSlice } from './templates-slice';
import { createWorkflowsSlice } from './workflows-slice';
import { createModelOptionsSlice } from './model-options-slice';
import { createStatusSlice } from './status-slice';
import { startStore } from './events';
import { createGallerySlice } from './gallery-slice';
import { createSettingsSlice } from './settings-slice';
import { createTaskCancelSlice } from './task-cancel-slice';
import { createTasksSlice } from './tasks-slice';
import { createTrashProgressSlice } from './trash-progress-slice';
import { createTriageSlice } from './triage-slice';
import { createUiSlice } from './ui-slice';
import { createUndoSlice } from './undo-slice';
import { createUpdatesSlice } from './updates-slice';

export const useAppStore = create<AppState>()(
  evictingUnheld((...a) => ({
    ...createComposeSlice(...a),
    ...createRecordsSlice(...a),
    ...createCompareSlice(...a),
    ...createTasksSlice(...a),
    ...createGallerySlice(...a),
    ...createSettingsSlice(...a),
    ...createUiSlice(...a),
    ...createStatusSlice(...a),
    ...createTrashProgressSlice(...a),
    ...createUpdatesSlice(...a),
    ...createArchiveSlice(...a),
    ...createDesktopSlice(...a),
    ...createSeedSlice(...a),
    ...createCostsSlice(...a),
    ...createTaskCancelSlice(...a),
    ...createTriageSlice(...a),
    ...createUndoSlice(...a),
    ...createBoardsSlice(...a),
    ...createPromptHistorySlice(...a),
    ...createTemplatesSlice(...a),
    ...createWorkflowsSlice(...a),
    ...createModelOptionsSlice(...a),
    ...createEditSlice(...a),
    ...createFormDraftsSlice(...a),
  })),
);

/**
 * Loads what the first screen needs and subscribes to the main process's events (once, from
 * main.tsx). Returns the function that unsubscribes.
 */
export function initStore(): () => void {
  return startStore(useAppStore);
}
