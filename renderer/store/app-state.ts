/** The whole renderer state: one store made of slices (see store/app-store.ts). */
import type { ComposeSlice } from './compose-slice';
import type { StatusSlice } from './status-slice';
import type { GallerySlice } from './gallery-slice';
import type { SettingsSlice } from './settings-slice';
import type { TasksSlice } from './tasks-slice';
import type { TrashProgressSlice } from './trash-progress-slice';
import type { UiSlice } from './ui-slice';

export type AppState = ComposeSlice &
  TasksSlice &
  GallerySlice &
  SettingsSlice &
  UiSlice &
  StatusSlice &
  TrashProgressSlice;
