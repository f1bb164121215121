/** The whole renderer state: one store made of slices (see store/app-store.ts). */
import type { CompareSlice } from './compare-slice';
import type { ComposeSlice } from './compose-slice';
import type { CostsSlice } from './costs-slice';
import type { EditSlice } from './edit-slice';
import type { DesktopSlice } from './desktop-slice';
import type { ArchiveSlice } from './archive-slice';
import type { BoardsSlice } from './boards-slice';
import type { PromptHistorySlice } from './prompt-history-slice';
import type { TemplatesSlice } from './templates-slice';
import type { StatusSlice } from './status-slice';
import type { GallerySlice } from './gallery-slice';
import type { SettingsSlice } from './settings-slice';
import type { TaskCancelSlice } from './task-cancel-slice';
import type { TasksSlice } from './tasks-slice';
import type { TrashProgressSlice } from './trash-progress-slice';
import type { TriageSlice } from './triage-slice';
import type { UiSlice } from './ui-slice';
import type { UndoSlice } from './undo-slice';
import type { UpdatesSlice } from './updates-slice';

export type AppState = ComposeSlice &
  CompareSlice &
  TasksSlice &
  GallerySlice &
  SettingsSlice &
  UiSlice &
  StatusSlice &
  TrashProgressSlice &
  UpdatesSlice &
  ArchiveSlice &
  DesktopSlice &
  CostsSlice &
  TaskCancelSlice &
  TriageSlice &
  UndoSlice &
  BoardsSlice &
  PromptHistorySlice &
  TemplatesSlice &
  EditSlice;
