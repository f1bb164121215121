/**
 * Setup of the `renderer` test project (jsdom): what jsdom lacks for the window's code
 * (ResizeObserver, element scrolling), waits that a loaded machine does not time out, and a fresh
 * DOM, store and language after every test.
 */
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { applyLocale } from '../../../renderer/i18n';
import { useAppStore } from '../../../renderer/store/app-store';
import { UNTIL } from '../../support/waits';
import { endTest } from '../../support/after-each-test';
import { quietWhilePolling } from './polling-errors';

// `waitFor` and `findBy…` wait on their condition; the deadline (1 s by default) is only for one
// that never holds, and must stay above what a loaded machine makes of one that does. Their polls
// do not print the page into errors no one reads (polling-errors.ts).
configure({ asyncUtilTimeout: UNTIL.timeout, getElementError: quietWhilePolling });

class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

globalThis.ResizeObserver ??= NoResizeObserver as unknown as typeof ResizeObserver;

if (!('scrollTo' in Element.prototype) || typeof Element.prototype.scrollTo !== 'function') {
  Element.prototype.scrollTo = function scrollTo(
    this: Element,
    options?: ScrollToOptions | number,
  ) {
    if (typeof options === 'object' && options.top !== undefined) this.scrollTop = options.top;
    // A browser tells the page that it scrolled; virtual lists listen for that.
    this.dispatchEvent(new Event('scroll'));
  } as Element['scrollTo'];
}

afterEach(async () => {
  // What the helpers the file imported started ends first (their apps, mains and services).
  await endTest();
  cleanup();
  useAppStore.setState(useAppStore.getInitialState(), true);
  document.documentElement.removeAttribute('data-theme');
  // What the page keeps across restarts (hidden notices) must not leak into the next test.
  localStorage.clear();
  delete (window as { pictor?: unknown }).pictor;
  // What a test stubbed or faked with vitest ends with it: in the projects whose files share a
  // thread (`renderer`, `renderer-wired`) the next file shares this DOM and these globals
  // (tests/support/module-isolation.ts lets a file that only does these share its thread).
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  // The page's language is the module's, which the next file in a shared thread imports as is.
  await applyLocale('en');
});
