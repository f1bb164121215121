/**
 * In the window: a record no formatter can show (createdAt 1e16, as a compromised
 * main process or an old build could send, bypassing the contract's schema) is one row that
 * says it is unreadable, with the detail on demand; the other rows, the other views and the
 * formatters keep working. A view that throws shows a message with "Try again", never a blank
 * window.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { seriousViolations } from '../axe-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PictorApi } from '../../../../shared/ipc/api';
import type { RequestChannel } from '../../../../shared/ipc/contract';
import {
  formatBytes,
  formatDateTime,
  formatDuration,
  formatNumber,
  isoDate,
} from '../../../../renderer/i18n';
import { makeImage } from '../../../support/task-records';
import { useAppStore } from '../../../../renderer/store/app-store';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { HISTORY_FILE } from '../../../../electron/core/pictor-core';
import type { WiredApi } from '../../../support/wired-api';
import { giveSize } from '../layout-sizes';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** One main for the file: each test seeds its records into an emptied history. */
const fileMain = sharedWiredMain();

/** Values a damaged record can carry where a number is expected. */
const JUNK_NUMBERS = [1e16, -1e16, 8.64e15 + 1, NaN, Infinity, -Infinity, Number.MAX_VALUE];

/**
 * Lets `channel` answer with whatever `change` makes of main's real, schema-checked answer: what a
 * compromised main process (or an old build) could send past the contract. Deliberately not the
 * contract interceptor's reply, which refuses any value main could not send.
 */
function tamper(main: WiredApi, channel: RequestChannel, change: (value: never) => unknown) {
  const invoke = main.api.invoke.bind(main.api) as (
    c: RequestChannel,
    i?: unknown,
  ) => Promise<unknown>;
  main.api.invoke = (async (name: RequestChannel, ...args: [unknown?]) => {
    const result = await invoke(name, args[0]);
    const answer = result as { ok: boolean; value?: unknown };
    if (name !== channel || !answer.ok) return result;
    return { ok: true, value: change(structuredClone(answer.value) as never) };
  }) as PictorApi['invoke'];
}

afterEach(() => vi.restoreAllMocks());

describe('formatters never throw', () => {
  it.each(JUNK_NUMBERS)('formats %s as a placeholder, not an exception', (value) => {
    for (const format of [formatDateTime]) expect(format(value)).toBe('unknown date');
    expect(() => formatNumber(value)).not.toThrow();
    expect(() => formatBytes(value)).not.toThrow();
    expect(() => formatDuration(value)).not.toThrow();
    expect(isoDate(value)).toBeUndefined();
  });

  it('still formats real dates', () => {
    const ms = Date.UTC(2026, 0, 15, 12);
    expect(formatDateTime(ms)).toMatch(/2026/);
    expect(isoDate(ms)).toBe('2026-01-15T12:00:00.000Z');
    expect(formatBytes(Infinity)).toBe('—');
  });
});

describe('a damaged record in the task list', () => {
  // Fault: main's tasks:list answer altered past the contract on its way to the page (a
  // compromised main or an old build; the real main skips such a row, as the next test shows).
  it.each([
    ['createdAt 1e16', { createdAt: 1e16 }],
    ['createdAt NaN (null on the wire)', { createdAt: null }],
    ['a prompt that is not text', { request: { prompt: { html: '<b>' } } }],
    ['images that are not a list', { images: 'many' }],
  ])('shows one unreadable row and every other row intact (%s)', async (_what, patch) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: (main) => {
        seedHistory(main, 5, () => ({ images: [makeImage(0)] }));
        tamper(main, 'tasks:list', (page: { items: Array<{ record: object }> }) => {
          const item = page.items[2];
          if (item) item.record = { ...item.record, ...patch };
          return page;
        });
      },
    });
    const feed = screen.getByRole('feed', { name: 'Task history' });
    await waitFor(() => expect(within(feed).getAllByRole('article')).toHaveLength(5));
    const unreadable = within(feed).getByRole('article', { name: 'Unreadable task' });
    expect(unreadable.textContent).toMatch(/cannot show this task/);
    for (const index of [0, 1, 3, 4]) expect(within(feed).getByText(`Prompt number ${index}`));
    expect(within(feed).queryByText('Prompt number 2')).toBeNull();

    // The technical detail is one click away.
    await user.click(within(unreadable).getByText('Details'));
    expect(within(unreadable).getByText(/createdAt|request|images/).textContent).not.toBe('');
    expect(await seriousViolations()).toEqual([]);

    // The app still works: another view opens.
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
  });
});

/** Rewrites a stored record's JSON in main's real history file, behind the store's back. */
function damage(main: WiredApi, localId: string, patch: Record<string, unknown>): void {
  const db = new DatabaseSync(join(main.runtime.dataDir, HISTORY_FILE));
  try {
    const row = db.prepare('SELECT record FROM tasks WHERE local_id = ?').get(localId);
    const record = { ...(JSON.parse(String(row?.['record'])) as object), ...patch };
    db.prepare('UPDATE tasks SET record = ? WHERE local_id = ?').run(
      JSON.stringify(record),
      localId,
    );
  } finally {
    db.close();
  }
}

describe('rows the main process skipped', () => {
  it('leave no placeholder behind once every page is loaded (the count still counts them)', async () => {
    const { main } = await startWiredApp({
      prepare: (wired) => {
        seedHistory(wired, 5);
        // A row an old build or a hand edit left: main counts 5 stored rows, and its list skips
        // the one it cannot read.
        damage(wired, 'seed-000002', { request: { prompt: { html: '<b>' } } });
      },
    });
    expect(main.runtime.core.history.count({})).toBe(5);
    const feed = screen.getByRole('feed', { name: 'Task history' });
    await waitFor(() => expect(useAppStore.getState().tasksCounted).toBe(true));
    expect(within(feed).getAllByRole('article')).toHaveLength(4);
    expect(feed.querySelector('[aria-busy="true"]')).toBeNull();
  });
});

describe('a view that throws', () => {
  // Fault: main's gallery:models answer altered past the contract (React cannot render it).
  it('shows a message with Try again instead of a blank window; the rest of the app works', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let broken = true;
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: (main) => {
        seedHistory(main, 3, () => ({ images: [makeImage(0)] }));
        // A model list with an object in it: React cannot render it and throws.
        tamper(main, 'gallery:models', (models: unknown[]) =>
          broken ? [...models, { not: 'a string' }] : models,
        );
      },
    });
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await user.click(screen.getByRole('button', { name: 'Gallery' }));
    const alert = await screen.findByText(/This part of Pictor could not be shown/);
    expect(alert.closest('.message')).not.toBeNull();
    expect(await seriousViolations()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Tasks' }));
    expect(screen.getByRole('feed', { name: 'Task history' })).toBeTruthy();
    expect(screen.getByText('Prompt number 1')).toBeTruthy();

    // Once the data is fine again, Try again brings the view back.
    broken = false;
    act(() => useAppStore.setState({ galleryModels: [] }));
    await user.click(screen.getByRole('button', { name: 'Gallery' }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('grid', { name: 'Images' })).toBeTruthy();
  });

  // Fault: main's gallery:list answer altered past the contract (the tiles read their images
  // from the records table, so the damage is in the record a tile is built from).
  it.each([
    ['images that are not a list', { images: null }],
    ['an image that is not an image', { images: [null] }],
    ['createdAt 1e16', { createdAt: 1e16 }],
    ['a prompt that is not text', { request: { prompt: { html: '<b>' } } }],
  ])(
    'a gallery tile whose record is unreadable is one unreadable tile; the others show (%s)',
    async (_what, patch) => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const { user } = await startWiredApp({
        main: fileMain,
        prepare: (main) => {
          seedHistory(main, 4, (index) => ({
            images: [makeImage(0, { file: `g/${index}.png` })],
          }));
          type Page = { items: Array<{ localId: string }>; records: Array<{ record: object }> };
          tamper(main, 'gallery:list', (page: Page) => {
            const localId = page.items[1]?.localId;
            for (const item of page.records) {
              const record = item.record as { localId?: string };
              if (record.localId === localId) item.record = { ...item.record, ...patch };
            }
            return page;
          });
        },
      });
      giveSize('.gallery-grid', { width: 900, height: 600 });
      await user.click(screen.getByRole('button', { name: 'Gallery' }));
      const grid = await screen.findByRole('grid', { name: 'Images' });
      await waitFor(() => expect(within(grid).getAllByRole('gridcell')).toHaveLength(4));
      expect(within(grid).getAllByText(/Cannot be shown/)).toHaveLength(1);
      expect(within(grid).getAllByRole('img', { name: /Prompt number/ })).toHaveLength(3);
      expect(screen.queryByText(/This part of Pictor could not be shown/)).toBeNull();
    },
  );
});
