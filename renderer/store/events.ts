/**
 * Start-up and the main process's events: `initStore()` loads what the first screen needs and
 * subscribes to every event once; it returns the function that unsubscribes (tests, reloads).
 */
import type { EventPayload } from '../../shared/ipc/contract';
import { announce } from '../components/live-region';
import { t } from '../i18n';
import { call, listen } from '../lib/api';
import type { AppState } from './app-state';
import type { View } from './ui-slice';
import { saveComposeMemory } from './compose-memory';
import { applyTaskChanges } from './task-changes';

type StoreApi = {
  getState(): AppState;
  setState(patch: Partial<AppState>): void;
  subscribe(listener: (state: AppState, previous: AppState) => void): () => void;
};

/** `gallery:changed` reasons that bring tasks the page has not heard of (archive-handlers, wire-app). */
const ADDS_TASKS: ReadonlySet<string> = new Set(['imported', 'moved']);

function subscribe(store: StoreApi): Array<() => void> {
  const state = (): AppState => store.getState();
  return [
    listen('tasks:updated', (changes) => applyTaskChanges(store, changes)),
    listen('library:progress', (progress) => state().folderProgress(progress)),
    listen('gallery:changed', ({ reason }) => {
      void state().galleryRefresh();
      if (state().triageLibrary !== null) void state().triageLoadLibrary();
      // An import or a move adds tasks no `tasks:updated` told of: the history is read again.
      if (ADDS_TASKS.has(reason)) {
        void state().tasksReload();
        state().costsNoteLedgerChange();
      }
    }),
    listen('settings:changed', (settings) => state().settingsApply(settings)),
    listen('keys:changed', ({ provider, status }) => {
      state().serviceKeyApply(provider, status);
      state().composeDismissRefusal();
    }),
    listen('network:changed', (change) => {
      if ('unreachable' in change) return state().uiSetUnreachable(change.unreachable);
      state().uiSetOffline(!change.online);
      announce(change.online ? t('announce.online') : t('announce.offline'));
    }),
    listen('app:demoChanged', ({ demo }) => state().uiSetDemo(demo)),
    listen('menu:command', ({ command }) => runMenuCommand(store, command)),
    listen('app:notice', ({ notice }) => state().uiAddNotice(notice)),
    listen('trash:progress', (progress) => state().trashApplyProgress(progress)),
    listen('app:quitting', (payload) => state().trashApplyQuitting(payload)),
    listen('export:progress', (progress) => state().exportApplyProgress(progress)),
    listen('tasks:cancelProgress', (progress) => state().tasksCancelProgress(progress)),
    listen('updates:changed', (updates) => state().updatesApply(updates)),
    listen('archive:progress', (progress) => state().archiveApplyProgress(progress)),
    listen('costs:changed', ({ version }) => state().costsApplyChange(version)),
  ];
}

type MenuCommand = EventPayload<'menu:command'>['command'];

/** The menu commands that show a screen, and the screen each shows. */
const SHOWS: Partial<Record<MenuCommand, View>> = {
  'show-tasks': 'tasks',
  'show-gallery': 'gallery',
  'show-costs': 'costs',
  'open-settings': 'settings',
};

/** What each application-menu command does in the window. */
function runMenuCommand(store: StoreApi, command: MenuCommand): void {
  const state = store.getState();
  const shows = SHOWS[command];
  if (shows !== undefined) {
    state.setView(shows);
    return;
  }
  switch (command) {
    case 'new-prompt':
      state.setView('tasks');
      state.requestFocus('prompt');
      return;
    case 'focus-search':
      // The gallery has its own search; from settings, the task search is meant.
      if (state.view === 'settings') state.setView('tasks');
      state.requestFocus('search');
      return;
    case 'triage-view':
      state.setView('gallery');
      state.triageShowView(null);
      return;
    case 'auto-advance': {
      const on = !state.triageAutoAdvance;
      state.triageSetAutoAdvance(on);
      state.confirm(() => t(on ? 'triage.autoAdvanceOn' : 'triage.autoAdvanceOff'));
      return;
    }
    case 'prompt-history':
      state.promptHistoryShow(true);
      return;
  }
}

/** Keeps the compose draft and its recent prompts for the next start, as they change. */
function keepComposeMemory(store: StoreApi): () => void {
  return store.subscribe((state, previous) => {
    if (
      state.composeDraft === previous.composeDraft &&
      state.composeRecent === previous.composeRecent
    )
      return;
    saveComposeMemory({ draft: state.composeDraft, recent: state.composeRecent });
  });
}

async function loadInfo(store: StoreApi): Promise<void> {
  try {
    store.getState().uiApplyInfo(await call('app:getInfo'));
  } catch (error) {
    store.getState().showError(error);
  }
}

/** Loads the first screen's data and subscribes to events; returns the unsubscribe function. */
export function startStore(store: StoreApi): () => void {
  store.getState().composeRestore();
  const unsubscribe = [...subscribe(store), keepComposeMemory(store)];
  void loadInfo(store);
  void store.getState().settingsLoad();
  void store.getState().tasksReload();
  void store.getState().updatesLoad();
  void store
    .getState()
    .modelOptionsLoad()
    .catch(() => undefined);
  return () => {
    for (const stop of unsubscribe) stop();
  };
}
