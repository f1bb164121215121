/**
 * Starts the real renderer (store, events, <App/>) over the app's real main process
 * (tests/support/wired-api.ts: AppRuntime and wireApp on a temporary folder, the embedded demo
 * service), as main.tsx does in the window. For the plain flows; a test that injects a fault
 * starts over the hand-written fake instead (render-app.tsx).
 */
import { cleanup, render, waitFor, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach } from 'vitest';
import { App } from '../../../renderer/app';
import { initStore, useAppStore } from '../../../renderer/store/app-store';
import { startWiredApi, type WiredApi, type WiredApiOptions } from '../../support/wired-api';
import { giveSize } from './render-app';

const running: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  // The window goes first (its subscriptions end), then main quits.
  cleanup();
  while (running.length > 0) await running.pop()?.();
});

export interface WiredApp extends RenderResult {
  readonly main: WiredApi;
  readonly user: ReturnType<typeof userEvent.setup>;
}

export interface WiredAppOptions extends WiredApiOptions {
  /** Prepares main before the window starts (settings, history records, keys…). */
  readonly prepare?: (main: WiredApi) => Promise<void> | void;
  /** userEvent options. */
  readonly userOptions?: Parameters<typeof userEvent.setup>[0];
  /** The task list's layout size; 900 × 600 unless said. */
  readonly listSize?: { width: number; height: number };
}

/** Starts main, installs its `window.pictor`, starts the store and renders the app. */
export async function startWiredApp(options: WiredAppOptions = {}): Promise<WiredApp> {
  const main = await startWiredApi(options);
  running.push(() => main.close());
  await options.prepare?.(main);
  (window as { pictor?: unknown }).pictor = main.api;
  giveSize('.task-list', options.listSize ?? { width: 900, height: 600 });
  running.push(initStore());
  const user = userEvent.setup(options.userOptions);
  const result = render(<App />);
  await waitFor(() => {
    const state = useAppStore.getState();
    if (!state.tasksLoaded || !state.settings || !state.appInfo) throw new Error('still loading');
  });
  return { ...result, main, user };
}
