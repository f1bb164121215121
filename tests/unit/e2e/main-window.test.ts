/**
 * The journeys' page is the main window, found by its address: with the hidden image window
 * opened first (as the app's image engine can), the main one still navigating from about:blank,
 * or only the image window there, the harness never takes the wrong one.
 */
import { describe, expect, it } from 'vitest';
import { isMainWindowUrl, mainWindow } from '../../e2e/harness/main-window';
import { APP_ENTRY_URL, IMAGE_PAGE_URL } from '../../../electron/app/protocol/schemes';
import { ManualClock } from '../../fakes/manual-clock';

/** A fake Playwright Page: only its address, which a navigation changes. */
class FakePage {
  constructor(
    public address: string,
    readonly name: string,
  ) {}
  url(): string {
    return this.address;
  }
}

class FakeApp {
  readonly open: FakePage[] = [];
  windows(): FakePage[] {
    return [...this.open];
  }
}

describe('the main window', () => {
  it('is known by its page, never the image window’s or a blank one', () => {
    expect(isMainWindowUrl(APP_ENTRY_URL)).toBe(true);
    expect(isMainWindowUrl(`${APP_ENTRY_URL}#/settings`)).toBe(true);
    expect(isMainWindowUrl(IMAGE_PAGE_URL)).toBe(false);
    expect(isMainWindowUrl('about:blank')).toBe(false);
    expect(isMainWindowUrl('pictor-app://app/other.html')).toBe(false);
  });

  it('is the main window even when the hidden image window opened first', async () => {
    const app = new FakeApp();
    app.open.push(new FakePage(IMAGE_PAGE_URL, 'image'), new FakePage(APP_ENTRY_URL, 'main'));
    expect((await mainWindow(app, new ManualClock())).name).toBe('main');
  });

  it('waits while the main window still shows about:blank, then takes it, not the image one', async () => {
    const clock = new ManualClock();
    const app = new FakeApp();
    const main = new FakePage('about:blank', 'main');
    app.open.push(new FakePage(IMAGE_PAGE_URL, 'image'), main);
    let found: FakePage | null = null;
    void mainWindow(app, clock).then((page) => {
      found = page;
    });
    await clock.advance(1_000);
    expect(found).toBeNull();
    main.address = APP_ENTRY_URL;
    await clock.advance(100);
    expect(found).toBe(main);
  });

  it('fails after its limit naming the windows it saw, when only the image window opened', async () => {
    const clock = new ManualClock();
    const app = new FakeApp();
    app.open.push(new FakePage(IMAGE_PAGE_URL, 'image'));
    let failure: unknown = null;
    void mainWindow(app, clock, 30_000).catch((error: unknown) => {
      failure = error;
    });
    await clock.advance(29_000);
    expect(failure).toBeNull();
    await clock.advance(1_100);
    expect(String(failure)).toContain(`No window showed ${APP_ENTRY_URL} within 30 s`);
    expect(String(failure)).toContain(IMAGE_PAGE_URL);
  });
});
