/**
 * Layout for the renderer's tests: jsdom lays nothing out, so a test gives the elements it needs
 * a size (the virtual lists') or an overflow (a box that cuts its text), undone after the test.
 */
import { afterEachTest } from '../../support/after-each-test';

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
