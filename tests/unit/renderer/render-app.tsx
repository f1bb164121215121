/**
 * Starts the real renderer (store, events, <App/>) against a fake API, as main.tsx does, and
 * gives the test what it needs to drive it.
 */
import { cleanup, render, waitFor, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/app';
import { preloadLazyParts } from '../../../renderer/shell/lazy-parts';
import { initStore, useAppStore } from '../../../renderer/store/app-store';
import { FakePictorApi, installFakeApi } from '../../fakes/fake-pictor-api';
import { afterEachTest } from './after-each-test';

const running: Array<() => void> = [];
afterEachTest(() => {
  while (running.length > 0) running.pop()?.();
});

type Box = 'clientHeight' | 'clientWidth' | 'scrollHeight';

/**
 * Gives every element matching `selector` a layout size (jsdom has no layout: clientWidth,
 * clientHeight and scrollHeight are 0). Its scroll height is the inline height of its first
 * child (the virtual list's spacer). Undone after the test.
 */
export function giveSize(selector: string, size: { width: number; height: number }): void {
  const read = (name: Box, element: HTMLElement): number =>
    Object.getOwnPropertyDescriptor(Element.prototype, name)?.get?.call(element) as number;
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      if (!this.matches(selector)) return read('scrollHeight', this);
      const spacer = this.firstElementChild as HTMLElement | null;
      return Math.max(size.height, Number.parseFloat(spacer?.style.height ?? '') || 0);
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.matches(selector) ? size.height : read('clientHeight', this);
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.matches(selector) ? size.width : read('clientWidth', this);
    },
  });
  running.push(() => {
    delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
    delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
    delete (HTMLElement.prototype as { scrollHeight?: number }).scrollHeight;
  });
}

/**
 * Makes every element matching `selector` hold more text than it shows (scrollWidth beyond
 * clientWidth), as a one-line box that cuts its text does in a browser. Other elements keep
 * what they had (another test helper's sizes included). Undone after the test.
 */
export function giveOverflow(selector: string): void {
  const before = {
    scrollWidth: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'scrollWidth'),
    clientWidth: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth'),
  };
  const inherited = (name: 'scrollWidth' | 'clientWidth', element: HTMLElement): number =>
    ((before[name] ?? Object.getOwnPropertyDescriptor(Element.prototype, name))?.get?.call(
      element,
    ) as number | undefined) ?? 0;
  for (const [name, cut] of [
    ['scrollWidth', 600],
    ['clientWidth', 200],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, name, {
      configurable: true,
      get(this: HTMLElement) {
        return this.matches(selector) ? cut : inherited(name, this);
      },
    });
  }
  running.push(() => {
    const own = HTMLElement.prototype as { scrollWidth?: number; clientWidth?: number };
    if (before.scrollWidth) Object.defineProperty(own, 'scrollWidth', before.scrollWidth);
    else delete own.scrollWidth;
    if (before.clientWidth) Object.defineProperty(own, 'clientWidth', before.clientWidth);
    else delete own.clientWidth;
  });
}

export interface StartedApp extends RenderResult {
  fake: FakePictorApi;
  user: ReturnType<typeof userEvent.setup>;
}

export interface StartOptions {
  /** Prepares the fake before the app starts (seed tasks, settings, key…). */
  prepare?: (fake: FakePictorApi) => void;
  /** userEvent options (e.g. `advanceTimers` with fake timers). */
  userOptions?: Parameters<typeof userEvent.setup>[0];
  /** The task list's layout size; 900 × 600 unless said. */
  listSize?: { width: number; height: number };
}

/**
 * Quits the running app (its window closed, its subscriptions ended, its state gone) and starts
 * it again, as a restart does: what the page keeps in localStorage stays.
 */
export async function restartApp(options: StartOptions = {}): Promise<StartedApp> {
  cleanup();
  while (running.length > 0) running.pop()?.();
  useAppStore.setState(useAppStore.getInitialState(), true);
  return startApp(options);
}

/** Installs a fake API, starts the store and renders the app; waits for the first data. */
export async function startApp(options: StartOptions = {}): Promise<StartedApp> {
  const fake = installFakeApi(new FakePictorApi());
  options.prepare?.(fake);
  giveSize('.task-list', options.listSize ?? { width: 900, height: 600 });
  running.push(initStore());
  const user = userEvent.setup(options.userOptions);
  // The parts the window loads when first opened are loaded first, as the idle window does.
  await preloadLazyParts();
  const result = render(<App />);
  await waitFor(() => {
    const state = useAppStore.getState();
    if (!state.tasksLoaded || !state.settings || !state.appInfo) throw new Error('still loading');
  });
  return { ...result, fake, user };
}
