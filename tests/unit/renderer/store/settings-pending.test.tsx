/**
 * A settings change shows at once and main's word settles it: the page lays the changes still on
 * their way over main's last settings, takes a refused one off again, and an answer or event that
 * arrives meanwhile does not undo a later change. Main's answers are held back by the test (the
 * contract's interceptor over the real wiring, tests/support/intercepted-api.ts), which is the
 * only way to see the page between a click and main's answer. Each test has a main of its own:
 * its settings change.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useAppStore, initStore } from '../../../../renderer/store/app-store';
import { ThemeChoice } from '../../../../renderer/features/settings/general-section';
import { useSettingSave } from '../../../../renderer/features/settings/use-setting-save';
import type { Settings } from '../../../../shared/domain/settings';
import type { HeldRequests } from '../../../support/contract-interceptor';
import { startInterceptedApi, type InterceptedApi } from '../../../support/intercepted-api';

let stop: () => void = () => undefined;
let main: InterceptedApi | null = null;
afterEach(async () => {
  stop();
  stop = () => undefined;
  await main?.close();
  main = null;
});
const state = () => useAppStore.getState();

/** Main's answers to `settings:update`, each given (or refused) when the test says. */
interface Held {
  answer(): void;
  refuse(message: string): void;
}

/** A main of the test's own whose `settings:update` requests are held, the page's store on it. */
async function start(): Promise<{ main: InterceptedApi; held: (index: number) => Held }> {
  const own = await startInterceptedApi();
  main = own;
  const gate: HeldRequests = own.intercept.request['settings:update'].hold();
  (window as { pictor?: unknown }).pictor = own.api;
  stop = initStore();
  await waitFor(() => expect(state().settings).not.toBeNull());
  const held = (index: number): Held => ({
    answer: () => gate.pass(index),
    refuse: (message) => gate.refuse(index, { code: 'failed', message }),
  });
  return { main: own, held };
}

/** How many `settings:update` requests the page has made (each is held). */
const sent = (main: InterceptedApi) => main.intercept.request['settings:update'].inputs.length;

/** Main's own settings now. */
async function mainSettings(main: InterceptedApi): Promise<Settings> {
  const answer = await main.api.invoke('settings:get');
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value as Settings;
}

const shown = (): Settings => {
  const settings = state().settings;
  if (!settings) throw new Error('No settings shown');
  return settings;
};

// Fault: main's answers to `settings:update` held back until the test gives (or refuses) each.
describe('a settings change on its way to main', () => {
  it('shows at once, and main’s answer settles it', async () => {
    const { main, held } = await start();
    expect(shown().theme).toBe('system');
    const saving = state().settingsUpdate({ theme: 'dark' });
    expect(shown().theme).toBe('dark');
    expect(sent(main)).toBe(1);
    held(0).answer();
    await expect(saving).resolves.toMatchObject({ theme: 'dark' });
    expect(shown().theme).toBe('dark');
  });

  it('a refused change is taken off again and the refusal reaches the caller', async () => {
    const { held } = await start();
    const saving = state().settingsUpdate({ watchTimeoutMinutes: 5 });
    expect(shown().watchTimeoutMinutes).toBe(5);
    held(0).refuse('No.');
    await expect(saving).rejects.toThrow('No.');
    expect(shown().watchTimeoutMinutes).toBe(30);
  });

  it('an earlier answer, or an event, does not undo a later change still pending', async () => {
    const { main, held } = await start();
    const first = state().settingsUpdate({ theme: 'dark' });
    const second = state().settingsUpdate({ theme: 'light' });
    expect(shown().theme).toBe('light');
    // The first answer (theme dark) and its `settings:changed` event arrive: the second stands.
    held(0).answer();
    await first;
    const mains = await mainSettings(main);
    expect(mains.theme).toBe('dark');
    expect(shown().theme).toBe('light');
    // Another change main made meanwhile (the command line's) is taken under the pending one.
    main.intercept.event['settings:changed'].inject({ ...mains, notifications: false });
    await waitFor(() => expect(shown()).toMatchObject({ theme: 'light', notifications: false }));
    held(1).answer();
    await second;
    expect(shown().theme).toBe('light');
  });

  it('a refusal between two changes takes off only its own', async () => {
    const { held } = await start();
    const theme = state().settingsUpdate({ theme: 'dark' });
    const minutes = state().settingsUpdate({ watchTimeoutMinutes: 7 });
    held(0).refuse('No.');
    await expect(theme).rejects.toThrow('No.');
    expect(shown()).toMatchObject({ theme: 'system', watchTimeoutMinutes: 7 });
    held(1).answer();
    await minutes;
    expect(shown()).toMatchObject({ theme: 'system', watchTimeoutMinutes: 7 });
  });
});

/** The theme radios with the app's saver, over the store. */
function Theme() {
  const saver = useSettingSave();
  const settings = useAppStore((store) => store.settings);
  return settings ? <ThemeChoice settings={settings} saver={saver} /> : null;
}

// Fault: main's answer to the choice held back, then a refusal main would give only on a broken disk.
describe('a choice in Settings', () => {
  it('is checked under the pointer before main answers, and unchecked again if main refuses', async () => {
    const { held } = await start();
    render(<Theme />);
    const dark = screen.getByRole<HTMLInputElement>('radio', { name: 'Dark' });
    fireEvent.click(dark);
    // Checked now, with main's answer still held: not the old choice put back under the pointer.
    expect(dark.checked).toBe(true);
    expect(
      screen.getByRole<HTMLInputElement>('radio', { name: 'Same as the system' }).checked,
    ).toBe(false);
    await act(async () => {
      held(0).refuse('The settings file cannot be written.');
      await Promise.resolve();
    });
    await waitFor(() => expect(dark.checked).toBe(false));
    expect(
      screen.getByRole<HTMLInputElement>('radio', { name: 'Same as the system' }).checked,
    ).toBe(true);
  });
});
