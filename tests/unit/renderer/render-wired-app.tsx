/**
 * Starts the real renderer (store, events, <App/>) over the app's real main process
 * (tests/support/wired-api.ts: AppRuntime and wireApp on a temporary folder, the embedded demo
 * service), as main.tsx does in the window. The page's side goes through the interceptor made
 * from the contract (tests/support/intercepted-api.ts): a test injects its faults (a request
 * failed, delayed or held, an event main would not send) with `main.intercept`; left plain, the
 * controls change nothing.
 */
import {
  act,
  cleanup,
  render,
  screen,
  waitFor,
  within,
  type RenderResult,
} from '@testing-library/react';
import { expect } from 'vitest';
import { App } from '../../../renderer/app';
import { preloadLazyParts } from '../../../renderer/shell/lazy-parts';
import { initStore, useAppStore } from '../../../renderer/store/app-store';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { makeTask } from '../../support/task-records';
import { interceptWired, type InterceptedApi } from '../../support/intercepted-api';
import { startWiredApi, type WiredApi, type WiredApiOptions } from '../../support/wired-api';
import { afterEachTest } from '../../support/after-each-test';
import { giveSize } from './layout-sizes';
import { pageUser, type PageUserOptions } from './page-user';

const START = Date.UTC(2026, 0, 15, 12, 0, 0);

/**
 * `count` finished tasks, newest first one minute apart, as the fake's `seedTasks` made them
 * (local ids `seed-000000`…, prompts "Prompt number 0"…); `build(i)` customises task i.
 */
export function seedRecords(
  count: number,
  build: (index: number) => Partial<TaskRecord> & { prompt?: string } = () => ({}),
): TaskRecord[] {
  return Array.from({ length: count }, (_, index) =>
    makeTask({
      localId: `seed-${String(index).padStart(6, '0')}`,
      taskId: `task-${String(index)}`,
      createdAt: START - index * 60_000,
      prompt: `Prompt number ${String(index)}`,
      ...build(index),
    }),
  );
}

/**
 * Writes {@link seedRecords} into main's history. For lists: no image files are behind them
 * (`main.generate` makes real ones).
 */
export function seedHistory(
  main: WiredApi,
  count: number,
  build: (index: number) => Partial<TaskRecord> & { prompt?: string } = () => ({}),
): TaskRecord[] {
  const records = seedRecords(count, build);
  main.runtime.core.history.putMany(records);
  return records;
}

const running: Array<() => Promise<void> | void> = [];
afterEachTest(async () => {
  // The window goes first (its subscriptions end), then main quits.
  cleanup();
  while (running.length > 0) await running.pop()?.();
});

export interface WiredApp extends RenderResult {
  readonly main: InterceptedApi;
  readonly user: ReturnType<typeof pageUser>;
}

export interface WiredAppOptions extends WiredApiOptions {
  /** Prepares main before the window starts (settings, history records, keys…). */
  readonly prepare?: (main: InterceptedApi) => Promise<void> | void;
  /** userEvent options (page-user.ts). */
  readonly userOptions?: PageUserOptions;
  /**
   * The task list waits on main (a stored key's storage has not answered: kept-id-page.ts): the
   * window is drawn without waiting for the list.
   */
  readonly listWaits?: boolean;
  /** The task list's layout size; 900 × 600 unless said. */
  readonly listSize?: { width: number; height: number };
  /**
   * The file's main (shared-wired-main.ts) instead of one of the test's own: it stays open after
   * the test, emptied before the next.
   */
  readonly main?: () => Promise<WiredApi>;
}

/**
 * Starts main, installs its `window.pictor` behind the contract's interceptor (a restart keeps the
 * interceptor it had), starts the store and renders the app.
 */
export async function startWiredApp(options: WiredAppOptions = {}): Promise<WiredApp> {
  const wired = options.main ? await options.main() : await startWiredApi(options);
  if (!options.main) running.push(() => wired.close());
  const main = 'intercept' in wired ? (wired as InterceptedApi) : interceptWired(wired);
  await options.prepare?.(main);
  (window as { pictor?: unknown }).pictor = main.api;
  giveSize('.task-list', options.listSize ?? { width: 900, height: 600 });
  running.push(initStore());
  const user = pageUser(options.userOptions);
  // The parts the window loads when first opened are loaded first, as the idle window does.
  await preloadLazyParts();
  const result = render(<App />);
  await waitFor(() => {
    const state = useAppStore.getState();
    const listed = state.tasksLoaded || options.listWaits === true;
    if (!listed || !state.settings || !state.appInfo) throw new Error('still loading');
  });
  return { ...result, main, user };
}

/**
 * Quits the window's side of a running wired app (the page closed, the store's subscriptions to
 * main ended, its state gone) and starts the page again over the SAME main, as
 * a restart of the window does: what the page keeps in localStorage stays, and so does
 * everything main holds (history, settings, keys, files). The main stays the test's (or the
 * file's) and is closed as before.
 */
export async function restartWiredApp(
  app: Pick<WiredApp, 'main'>,
  options: Pick<WiredAppOptions, 'prepare' | 'userOptions' | 'listSize'> = {},
): Promise<WiredApp> {
  cleanup();
  // startWiredApp's last registration is always its store's subscriptions (initStore's undo).
  await running.pop()?.();
  useAppStore.setState(useAppStore.getInitialState(), true);
  return startWiredApp({ ...options, main: () => Promise.resolve(app.main) });
}

/**
 * Shows Settings as the store's `setView` does and waits until its page is drawn
 * ({@link drawnHeading}: its level-1 heading "Settings").
 */
export async function showSettings(): Promise<void> {
  act(() => useAppStore.getState().setView('settings'));
  await drawnHeading(1, 'Settings');
}

/**
 * The heading of `level` named `name`, once drawn: waited for by its element's tag and text, then
 * found by role, level and name among its parent's children. (Waited for by role, the query
 * computed every element's role and name again at each change of the page as it was drawn:
 * seconds of a Settings test's own CPU. Found by role over the whole page, it still cost 14 ms a
 * test: the selector of every heading matched against each element, then each heading's name and
 * visibility.)
 */
export async function drawnHeading(level: number, name: string): Promise<HTMLElement> {
  const tag = `h${String(level)}`;
  const drawn = () =>
    Array.from(document.querySelectorAll(tag)).find((heading) => heading.textContent === name);
  const heading = await waitFor(() => drawn() ?? expect.fail(`no ${tag} "${name}" yet`));
  return within(heading.parentElement ?? document.body).getByRole('heading', { name, level });
}

/**
 * Clicks the sidebar's button of a screen (`name`: how its label begins, a count may follow),
 * found among the sidebar's buttons: found by role over the whole page, every button's name and
 * style was computed at each click (about 20 ms in a Settings test's page of 50 buttons).
 */
export async function clickScreen(
  user: { click(element: Element): Promise<void> },
  name: RegExp,
): Promise<void> {
  const sidebar = screen.getByRole('navigation', { name: 'Main' });
  await user.click(within(sidebar).getByRole('button', { name }));
}
