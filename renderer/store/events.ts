/**
 * Start-up and the main process's events: `initStore()` loads what the first screen needs and
 * subscribes to every event once; it returns the function that unsubscribes (tests, reloads).
 */
import type { TaskStatus } from '../../shared/domain/task-record';
import type { EventPayload } from '../../shared/ipc/contract';
import { announce } from '../components/live-region';
import { errorText, t } from '../i18n';
import { call, listen } from '../lib/api';
import type { AppState } from './app-state';
import { saveComposeMemory } from './compose-memory';

type StoreApi = {
  getState(): AppState;
  subscribe(listener: (state: AppState, previous: AppState) => void): () => void;
};

/** `gallery:changed` reasons that bring tasks the page has not heard of (library-handlers, wire-app). */
const ADDS_TASKS: ReadonlySet<string> = new Set(['imported', 'moved']);

/** The sentence to announce when a task reaches `status` (null: nothing to say). */
function announcement(payload: EventPayload<'task:updated'>, before: TaskStatus): string | null {
  const { record } = payload;
  if (record.status === before) return null;
  switch (record.status) {
    case 'completed':
      return t('announce.completed', { prompt: record.request.prompt });
    case 'failed':
    case 'not_found':
      return t('announce.failed', {
        reason: record.error ? errorText(record.error) : t('tasks.status.failed'),
      });
    case 'submit_failed':
      return t('announce.submitFailed', { reason: record.error ? errorText(record.error) : '' });
    default:
      return null;
  }
}

function onTaskUpdated(store: StoreApi, payload: EventPayload<'task:updated'>): void {
  const state = store.getState();
  const before = state.tasksItems.find((item) => item.record.localId === payload.record.localId);
  const sentence = before ? announcement(payload, before.record.status) : null;
  // A cost reported (or an estimate made, or a task not billed) changes what caps have spent.
  const cost = payload.record.cost;
  if (cost !== undefined && JSON.stringify(cost) !== JSON.stringify(before?.record.cost))
    state.costsNoteLedgerChange();
  state.tasksApplyUpdate(payload);
  state.galleryApplyTaskUpdate(payload);
  if (sentence) announce(sentence);
  onSubmitAnswered(store, payload.record);
}

/** A submit was answered: a refusal gives the form back what was sent; an acceptance ends the banner. */
function onSubmitAnswered(store: StoreApi, record: EventPayload<'task:updated'>['record']): void {
  const state = store.getState();
  if (record.status === 'submit_failed') state.composeRestoreRefused(record.localId);
  else if (record.status === 'processing' && state.composeRefusal) state.composeDismissRefusal();
}

/** A submit refused for the account: its row goes (it was never kept), one banner says why. */
function onTaskRefused(store: StoreApi, payload: EventPayload<'task:refused'>): void {
  const state = store.getState();
  state.tasksApplyRemoved(payload.localId);
  state.galleryRemoveTask(payload.localId);
  const first = state.composeRefusal === null;
  state.composeApplyRefusal(payload);
  if (first) announce(t(`banner.refused.${payload.kind}`));
}

function subscribe(store: StoreApi): Array<() => void> {
  const state = (): AppState => store.getState();
  return [
    listen('task:updated', (payload) => onTaskUpdated(store, payload)),
    listen('task:refused', (payload) => onTaskRefused(store, payload)),
    listen('galleryFolder:progress', (progress) => state().folderProgress(progress)),
    listen('task:removed', ({ localId }) => {
      state().tasksApplyRemoved(localId);
      state().galleryRemoveTask(localId);
    }),
    listen('gallery:changed', ({ reason }) => {
      void state().galleryRefresh();
      // An import or a move adds tasks no `task:updated` told of: the history is read again.
      if (ADDS_TASKS.has(reason)) {
        void state().tasksReload();
        state().costsNoteLedgerChange();
      }
    }),
    listen('settings:changed', (settings) => state().settingsApply(settings)),
    listen('keys:changed', ({ provider, status }) => state().serviceKeyApply(provider, status)),
    listen('key:changed', (status) => {
      state().keyApply(status);
      state().composeDismissRefusal();
    }),
    listen('network:changed', ({ online }) => {
      state().uiSetOffline(!online);
      announce(online ? t('announce.online') : t('announce.offline'));
    }),
    listen('app:demoChanged', ({ demo }) => state().uiSetDemo(demo)),
    listen('menu:command', ({ command }) => runMenuCommand(store, command)),
    listen('app:notice', ({ notice }) => state().uiAddNotice(notice)),
    listen('trash:progress', (progress) => state().trashApplyProgress(progress)),
    listen('app:quitting', (payload) => state().trashApplyQuitting(payload)),
    listen('export:progress', (progress) => state().exportApplyProgress(progress)),
    listen('cancel:progress', (progress) => state().tasksCancelProgress(progress)),
    listen('updates:changed', (updates) => state().updatesApply(updates)),
    listen('library:progress', (progress) => state().libraryApplyProgress(progress)),
    listen('costs:changed', ({ version }) => state().costsApplyChange(version)),
  ];
}

/** What each application-menu command does in the window. */
function runMenuCommand(store: StoreApi, command: EventPayload<'menu:command'>['command']): void {
  const state = store.getState();
  switch (command) {
    case 'new-prompt':
      state.setView('tasks');
      state.requestFocus('prompt');
      return;
    case 'show-tasks':
      state.setView('tasks');
      return;
    case 'show-gallery':
      state.setView('gallery');
      return;
    case 'show-costs':
      state.setView('costs');
      return;
    case 'open-settings':
      state.setView('settings');
      return;
    case 'focus-search':
      // The gallery has its own search; from settings, the task search is meant.
      if (state.view === 'settings') state.setView('tasks');
      state.requestFocus('search');
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
  return () => {
    for (const stop of unsubscribe) stop();
  };
}
