/**
 * The parts of the window a first screen does not show, each loaded when it is first opened (its
 * own chunk: components/lazy-part.tsx): the Gallery and its image viewer, Compare, the edit
 * dialog with its mask editor, Costs, Settings, the connect panel and the template manager (the
 * compose form's, compose/template-manager-gate.tsx). Once the window is idle after its first
 * screen they are preloaded, so opening one later shows it at once.
 */
import { lazyPart } from '../components/lazy-part';
import { TemplateManagerParts } from '../features/compose/template-manager-gate';
import { whenIdle } from '../lib/use-when-idle';

export const GalleryParts = lazyPart(
  () => import('../features/gallery/gallery-view').then((module) => module.GalleryView),
  'gallery.loading',
);

export const TaskViewerParts = lazyPart(
  () => import('../features/gallery/task-image-viewer').then((module) => module.TaskImageViewer),
  'common.loading',
);

export const CompareParts = lazyPart(
  () => import('../features/compare/compare-layer').then((module) => module.CompareLayer),
  'common.loading',
);

export const EditParts = lazyPart(
  () => import('../features/edit/edit-panel').then((module) => module.EditLayer),
  'common.loading',
);

export const CostsParts = lazyPart(
  () => import('../features/costs/costs-view').then((module) => module.CostsView),
  'costs.loading',
);

export const SettingsParts = lazyPart(
  () => import('../features/settings/settings-view').then((module) => module.SettingsView),
  'settings.loading',
);

export const ConnectParts = lazyPart(
  () => import('../features/settings/connect-panel').then((module) => module.ConnectPanelHost),
  'common.loading',
);

const ALL = [
  GalleryParts,
  TaskViewerParts,
  CompareParts,
  EditParts,
  CostsParts,
  SettingsParts,
  ConnectParts,
  TemplateManagerParts,
];

/** Loads every part's chunk; resolves when all are there (or failed, to be shown when used). */
export function preloadLazyParts(): Promise<void> {
  return Promise.all(ALL.map((part) => part.preload())).then(() => undefined);
}

/** How long after the first screen the window may stay busy before the parts load anyway. */
const PRELOAD_IDLE_TIMEOUT_MS = 5_000;

/** Preloads the parts once the window is idle; returns the cancel. */
export function preloadWhenIdle(): () => void {
  return whenIdle(() => void preloadLazyParts(), PRELOAD_IDLE_TIMEOUT_MS);
}
