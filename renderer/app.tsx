/**
 * The window: sidebar, standing banners, the current screen, the status area and the live region.
 * Screens stay mounted once shown (hidden when not current) so a list keeps its scroll position.
 * The window's own state is kept where it is used: the current screen and the screens drawn so
 * far in Screens, so a screen drawn or chosen redraws neither the sidebar, the banners nor the
 * status area; and the Tasks screen (its view and its whole compose form) is drawn again only
 * when it is shown or hidden, not when another screen is drawn in the background or chosen.
 */
import { memo, useEffect, useState, type ReactNode } from 'react';
import { LiveRegion } from './components/live-region';
import { ViewErrorBoundary } from './components/error-boundary';
import { ComposeForm } from './features/compose/compose-form';
import { Banners } from './shell/banners';
import { Nav } from './shell/nav';
import { StatusArea } from './shell/status-area';
import { useAppliedLanguage } from './shell/use-language';
import { useAppliedTheme } from './shell/use-theme';
import { useScreenKeys } from './shell/screen-keys';
import {
  CompareParts,
  CostsParts,
  EditParts,
  GalleryParts,
  preloadWhenIdle,
  SettingsParts,
  TaskViewerParts,
} from './shell/lazy-parts';
import { usePromptHistoryKey } from './shell/prompt-history-key';
import { TasksView } from './features/tasks/tasks-view';
import { t } from './i18n';
import { useAppStore } from './store/app-store';
import { whenIdle } from './lib/use-when-idle';
import type { View } from './store/ui-slice';

/** How long the window may stay busy before the gallery is drawn in the background anyway. */
const GALLERY_IDLE_TIMEOUT_MS = 3_000;

/**
 * The screens drawn so far. The gallery is drawn (hidden) and its first page loaded once the
 * window is idle after the task list's first load, so clicking Gallery only has to show it and
 * ask for the thumbnails in view; before, the click also mounted the screen and waited for the
 * first page (about 150 ms of the 300 ms the open may take at 50,000 images).
 */
function useShownViews(view: View): ReadonlySet<View> {
  const [shown, setShown] = useState<ReadonlySet<View>>(() => new Set([view]));
  if (!shown.has(view)) setShown(new Set([...shown, view]));
  const settled = useAppStore(
    (state) => state.tasksStatus === 'ready' || state.tasksStatus === 'error',
  );
  useEffect(() => {
    if (!settled) return undefined;
    const show = () => setShown((now) => (now.has('gallery') ? now : new Set([...now, 'gallery'])));
    return whenIdle(show, GALLERY_IDLE_TIMEOUT_MS);
  }, [settled]);
  // The screens and dialogs loaded when opened (shell/lazy-parts.tsx), fetched ahead once idle.
  useEffect(() => (settled ? preloadWhenIdle() : undefined), [settled]);
  return shown;
}

/** The image viewer over the Tasks screen (the gallery's), loaded the first time it opens. */
function TaskViewerGate() {
  const open = useAppStore((state) => state.tasksViewer !== null);
  return open ? <TaskViewerParts.Part /> : null;
}

/** Compare's dialog and view, loaded the first time one of them opens. */
function CompareGate() {
  const open = useAppStore((state) => state.compareDialogOpen || state.compareGroup !== null);
  return open ? <CompareParts.Part /> : null;
}

/** The edit dialog (and its mask editor), loaded the first time it opens. */
function EditGate() {
  const open = useAppStore((state) => state.editPanel !== null);
  return open ? <EditParts.Part /> : null;
}

/**
 * One screen's place: drawn once it was first shown (`shown`), kept, hidden while another is the
 * view; a crash in it stays in it.
 */
function ViewPane(props: { of: View; view: View; shown: boolean; children: ReactNode }) {
  if (!props.shown) return null;
  return (
    <div className="app__view" hidden={props.view !== props.of}>
      <ViewErrorBoundary>{props.children}</ViewErrorBoundary>
    </div>
  );
}

/**
 * The Tasks screen with its compose form and image viewer, made here once per change of `active`:
 * made anew at each of the window's changes, the screen and its form (about 150 components) were
 * drawn again when the gallery was drawn in the background after start.
 */
const TasksScreen = memo(function TasksScreen({ active }: { active: boolean }) {
  return (
    <TasksView
      active={active}
      compose={<ComposeForm active={active} />}
      viewer={<TaskViewerGate />}
    />
  );
});

/** The screens: the current one shown, the others drawn so far kept hidden. */
function Screens() {
  const view = useAppStore((state) => state.view);
  const shown = useShownViews(view);
  return (
    <>
      <ViewPane of="tasks" view={view} shown>
        <TasksScreen active={view === 'tasks'} />
      </ViewPane>
      <ViewPane of="gallery" view={view} shown={shown.has('gallery')}>
        <GalleryParts.Part />
      </ViewPane>
      <ViewPane of="costs" view={view} shown={shown.has('costs')}>
        <CostsParts.Part active={view === 'costs'} />
      </ViewPane>
      <ViewPane of="settings" view={view} shown={shown.has('settings')}>
        <SettingsParts.Part />
      </ViewPane>
    </>
  );
}

export function App() {
  useAppliedTheme();
  useScreenKeys();
  usePromptHistoryKey();
  // A new language redraws the window in it: every string is read again (state lives in the store).
  const language = useAppliedLanguage();
  return (
    <div className="app" key={language}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Nav />
      <div className="app__main">
        <Banners />
        <main id="main" className="app__content" tabIndex={-1}>
          <Screens />
        </main>
        <ViewErrorBoundary>
          <CompareGate />
        </ViewErrorBoundary>
        <ViewErrorBoundary>
          <EditGate />
        </ViewErrorBoundary>
        <StatusArea />
      </div>
      <LiveRegion />
    </div>
  );
}
