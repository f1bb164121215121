/**
 * The fourth walk's smaller items: an empty date filter shows the form of a day in letters (a
 * real day there read as a filter in use); Settings is last in the sidebar, with Ctrl+3 for Costs
 * and Ctrl+4 for Settings, the application menu's Costs too; an export says how far main's copy
 * is from its first report and ends on a result line that counts what could not be copied; task
 * details name the service (its address on hover, and copied by a button), say where a cost comes
 * from in words, and remark on an image that is not the size asked for.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { RequestOutput } from '../../../../shared/ipc/contract';
import { makeImage } from '../../../support/task-records';
import { giveSize, startApp } from '../render-app';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const fileMain = sharedWiredMain();

afterEach(async () => {
  await applyLocale('en');
});

const nav = (): HTMLElement => screen.getByRole('navigation', { name: 'Main' });

describe('the date filters', () => {
  it('show the form of a day in letters while empty, in the user’s language', async () => {
    const { user } = await startWiredApp({ main: fileMain });
    await user.click(within(nav()).getByRole('button', { name: 'Gallery' }));
    const from = await screen.findByLabelText('From');
    expect(from.getAttribute('placeholder')).toBe('MM/DD/YYYY');
    expect(screen.getByLabelText('To').getAttribute('placeholder')).toBe('MM/DD/YYYY');
    await act(() => applyLocale('de'));
    expect((await screen.findByLabelText('Von')).getAttribute('placeholder')).toBe('TT.MM.JJJJ');
  });
});

describe('the sidebar', () => {
  it('has Settings last, and the keys follow its order', async () => {
    const { user, main } = await startWiredApp({ main: fileMain });
    const names = within(nav())
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(names).toEqual(['Tasks', 'Gallery', 'Costs', 'Settings']);
    const button = (name: string) => within(nav()).getByRole('button', { name });
    expect(button('Costs').getAttribute('aria-keyshortcuts')).toBe('Control+3');
    expect(button('Settings').getAttribute('title')).toBe('Settings (Ctrl+4)');
    await user.keyboard('{Control>}3{/Control}');
    expect(useAppStore.getState().view).toBe('costs');
    await user.keyboard('{Control>}4{/Control}');
    expect(useAppStore.getState().view).toBe('settings');
    // The application menu's View › Costs (Ctrl+3 there too).
    await act(async () => main.send('menu:command', { command: 'show-costs' }));
    expect(useAppStore.getState().view).toBe('costs');
  });
});

describe('an export of images', () => {
  // Fault: main's answer held back, to see its first progress report before any image is copied.
  it('shows main’s copy from its first report and ends on a line that counts the failures', async () => {
    let finish: (answer: RequestOutput<'gallery:exportImages'>) => void = () => undefined;
    const { user, fake } = await startApp({
      prepare: (f) =>
        void f.seedTasks(3, (index) => ({
          images: [makeImage(0, { file: `g/${String(index)}.png` })],
        })),
    });
    fake.handle(
      'gallery:exportImages',
      () => new Promise<RequestOutput<'gallery:exportImages'>>((resolve) => (finish = resolve)),
    );
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await user.click(within(nav()).getByRole('button', { name: 'Gallery' }));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Export…' }));
    // Main has the folder and starts: its first report (before any image) shows at once.
    act(() => fake.emit('export:progress', { done: 0, total: 3 }));
    expect(screen.getByRole('group', { name: 'Copying images: 0 of 3…' })).toBeTruthy();
    act(() => fake.emit('export:progress', { done: 3, total: 3 }));
    act(() => finish({ folder: '/home/ada/Export', copied: 2, failed: 1 }));
    const done = screen.getByRole('status', { name: 'Done' });
    expect(
      await within(done).findByText(
        '2 images copied to /home/ada/Export. 1 image could not be copied.',
      ),
    ).toBeTruthy();
  });
});

describe('task details', () => {
  it('name the service, give its address on hover and by a button', async () => {
    const { user, main } = await startWiredApp({
      main: fileMain,
      prepare: (m) =>
        void seedHistory(m, 1, () => ({
          status: 'completed',
          provider: 'fal',
          endpoint: 'https://queue.fal.run',
          cost: { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' },
          request: { prompt: 'A lighthouse', size: '1024x1024' },
          images: [makeImage(0, { width: 256, height: 256 }), makeImage(1)],
        })),
    });
    const row = screen.getAllByRole('article')[0]!;
    await user.click(within(row).getByRole('button', { name: 'Details' }));
    const dialog = screen.getByRole('dialog', { name: 'Task details' });
    const service = within(dialog).getByText('Service').nextElementSibling as HTMLElement;
    expect(service.textContent).toBe('fal.ai');
    expect(within(service).getByText('fal.ai').getAttribute('title')).toBe('https://queue.fal.run');
    await user.click(within(service).getByRole('button', { name: 'Copy the service’s address' }));
    // Main put it on the clipboard (the OS stand-in records it).
    expect(main.os.calls).toContainEqual({ action: 'copyText', arg: 'https://queue.fal.run' });
    expect(
      await within(screen.getByRole('status', { name: 'Done' })).findByText(
        'Service address copied.',
      ),
    ).toBeTruthy();

    // The cost's source in words; the field the service said it in, on hover only.
    const cost = within(dialog).getByText('Cost').nextElementSibling as HTMLElement;
    expect(cost.textContent).toBe('$0.04, reported by the service');
    expect(within(cost).getByText('$0.04, reported by the service').getAttribute('title')).toBe(
      'usage.cost',
    );

    // The image sent at another size than asked for is remarked on; the other is not.
    const remarks = dialog.querySelectorAll('.details-images__remark');
    expect([...remarks].map((remark) => remark.textContent)).toEqual([
      'The service sent 256×256, not the 1024×1024 asked for.',
    ]);
  });
});
