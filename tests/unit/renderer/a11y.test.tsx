/**
 * axe-core on every screen of the tasks, settings and shell (in jsdom). jsdom has no layout or
 * rendering, so colour contrast cannot be checked here: that rule is off, and contrast is
 * checked by the screenshot harness in real Chromium (harness/screenshots.ts).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { seriousViolations } from './axe-check';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../renderer/store/app-store';
import { makeImage } from '../../support/task-records';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { connectService, SERVICE_KEY, unusedAddress } from './dialect-services';
import { seedHistory, showSettings, startWiredApp } from './render-wired-app';
import { sharedWiredMain } from './shared-wired-main';
import { ownAddress } from '../../support/own-address';

const shared = sharedWiredMain();

const everyStatus = (i: number) =>
  [
    { status: 'submitting' as const, taskId: null },
    { status: 'processing' as const, finishedAt: null },
    {
      status: 'completed' as const,
      images: [
        makeImage(0),
        makeImage(1, { state: 'pending' }),
        makeImage(2, { state: 'expired' }),
        makeImage(3),
        makeImage(4),
      ],
    },
    {
      status: 'failed' as const,
      error: { kind: 'task_failed' as const, message: 'Refused.', detail: 'x' },
    },
    {
      status: 'submit_failed' as const,
      taskId: null,
      error: { kind: 'credits' as const, message: 'No credits.' },
    },
    { status: 'submit_unknown' as const, taskId: null },
    { status: 'processing' as const, hold: 'timed_out' as const },
    { status: 'not_found' as const },
  ][i % 8]!;

// Each test runs axe over whole screens several times: seconds of CPU each, many more on a
// saturated machine. The time allowed is generous; nothing here is judged by time.
describe('accessibility (axe-core, no serious or critical violations)', { timeout: 60_000 }, () => {
  it('tasks screen with every status, banners and an error toast', async () => {
    const { main } = await startWiredApp({
      main: shared,
      prepare: (main) => void seedHistory(main, 40, everyStatus),
    });
    act(() => {
      main.send('network:changed', { online: false });
      useAppStore.getState().showError(new Error('boom'));
    });
    await screen.findAllByText(/offline/i);
    expect(await seriousViolations()).toEqual([]);
  });

  it('empty tasks screen, with a refused prompt', async () => {
    const { user } = await startWiredApp({ main: shared });
    await user.click(screen.getByRole('button', { name: /Generate/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Size' }), 'Custom…');
    await user.clear(screen.getByRole('textbox', { name: /Custom size/ }));
    await user.type(screen.getByRole('textbox', { name: /Custom size/ }), 'x');
    expect(await seriousViolations()).toEqual([]);
  });

  it('task details, track and remove dialogs', async () => {
    const { user } = await startWiredApp({
      main: shared,
      prepare: (main) => void seedHistory(main, 8, everyStatus),
    });
    const row = screen.getAllByRole('article')[2]!;
    await user.click(within(row).getByRole('button', { name: 'Details' }));
    expect(await seriousViolations()).toEqual([]);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Track a task id' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Track' }));
    expect(await seriousViolations()).toEqual([]);
    await user.keyboard('{Escape}');
    await user.click(within(row).getByRole('button', { name: 'Remove from history' }));
    expect(await seriousViolations()).toEqual([]);
  });

  // Fault: the first service's cancel is never answered (its task stays "Cancelling…"): the
  // contract's interceptor holds main's tasks:cancel.
  it('cancel on a service: Cancelling…, the removal question, Stop watching where it cannot', async () => {
    const services = [
      { provider: 'fal' as const, endpoint: 'https://queue.fal.run' },
      { provider: 'fal' as const, endpoint: 'https://queue.fal.run' },
      { provider: 'bfl' as const, endpoint: 'https://api.bfl.ai' },
    ];
    const { user, main } = await startWiredApp({
      main: shared,
      prepare: (m) =>
        void seedHistory(m, 3, (i) => ({ status: 'processing', finishedAt: null, ...services[i] })),
    });
    // The first service never answers: its task stays "Cancelling…".
    main.intercept.request['tasks:cancel'].hold();
    const rows = screen.getAllByRole('article');
    await user.click(within(rows[0]!).getByRole('button', { name: 'Cancel on fal.ai' }));
    await within(rows[0]!).findByRole('status', { name: 'Cancelling…' });
    expect(await seriousViolations()).toEqual([]);
    await user.click(within(rows[1]!).getByRole('button', { name: 'Remove from history' }));
    await screen.findByRole('alertdialog', { name: 'Cancel on the service?' });
    expect(await seriousViolations()).toEqual([]);
    await user.keyboard('{Escape}');
    // A service without cancel: the row's action is Stop watching, said by name.
    expect(within(rows[2]!).getByRole('button', { name: 'Stop watching' })).toBeTruthy();
    expect(await seriousViolations()).toEqual([]);
  });

  it('settings: no key, consent, stored weak key', async () => {
    // The weak plain-text keyring; today's contract at an address where nothing listens.
    const nowhere = await unusedAddress();
    const { user } = await startWiredApp({
      runtime: { cipher: new InMemoryCipher({ backend: 'basic_text' }) },
      prepare: (main) => main.runtime.updateSettings(ownAddress(nowhere)).then(() => undefined),
    });
    await showSettings();
    expect(await seriousViolations()).toEqual([]);
    // Each service has its own key form: today's contract's is the "API key" section.
    const key = within(screen.getByRole('region', { name: 'API key' }));
    await user.type(key.getByLabelText('API key', { selector: 'input' }), 'sk-1');
    await user.click(key.getByRole('button', { name: 'Save key' }));
    await screen.findByRole('group', { name: 'Store with weaker protection?' });
    expect(await seriousViolations()).toEqual([]);
    await user.click(key.getByRole('button', { name: 'Store with weaker protection' }));
    // Nothing answers at the address: the key cannot be checked, and Save asks first.
    await key.findByText('Save the key without checking it?');
    expect(await seriousViolations()).toEqual([]);
    await user.click(key.getByRole('button', { name: 'Save anyway' }));
    await key.findByText(/A key is stored/);
    const reports = document.querySelectorAll('[role="status"], [role="alert"]').length;
    await user.click(key.getByRole('button', { name: 'Test connection' }));
    // The report of a test that reached nothing.
    await waitFor(() =>
      expect(document.querySelectorAll('[role="status"], [role="alert"]').length).toBeGreaterThan(
        reports,
      ),
    );
    expect(await seriousViolations()).toEqual([]);
  });

  it('connect a service: the panel, its test report, its one question; the missing-key notice', async () => {
    // fal.ai at a fal dialect that answers the test, then stops before Save checks the key.
    let fal = { close: () => Promise.resolve() };
    const { user } = await startWiredApp({
      prepare: async (main) => void (fal = await connectService(main, 'fal', { key: null })),
    });
    const banner = screen.getByRole('region', { name: 'Demo service' });
    await user.click(within(banner).getByRole('button', { name: 'Connect a service' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Connect a service' }));
    await user.selectOptions(panel.getByRole('combobox', { name: 'Service' }), 'fal');
    expect(await seriousViolations()).toEqual([]);
    await user.type(panel.getByLabelText('fal.ai API key'), SERVICE_KEY);
    await user.click(panel.getByRole('button', { name: 'Test connection' }));
    await panel.findByText(/accepted the key/);
    await fal.close();
    await user.click(panel.getByRole('button', { name: 'Save' }));
    await panel.findByRole('group', { name: 'Save the key without checking it?' });
    expect(await seriousViolations()).toEqual([]);
    await user.click(panel.getByRole('button', { name: 'Close' }));
    const form = within(screen.getByRole('form', { name: 'New task' }));
    await user.selectOptions(form.getByRole('combobox', { name: 'Service' }), 'bfl');
    form.getByRole('link', { name: 'Add your Black Forest Labs key' });
    expect(await seriousViolations()).toEqual([]);
  });

  it('the check itself finds a serious violation when there is one', async () => {
    await startWiredApp({ main: shared });
    const broken = document.createElement('img');
    broken.src = 'x.png';
    document.querySelector('main')!.append(broken);
    expect((await seriousViolations()).join()).toMatch(/image-alt/);
    broken.remove();
  });
});
