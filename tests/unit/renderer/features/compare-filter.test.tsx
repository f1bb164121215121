/**
 * The gallery's Compare group filter over the real renderer and the app's real main: absent until
 * the library has a compare (and there once one is run); labelled, it offers every image, every
 * compare's, and each group by when it began, its first prompt (between isolates, so a prompt in
 * another script keeps its own direction) and its targets; choosing asks main for those images
 * only; from a group, "Open compare" (reached with Tab, pressed with Enter) brings its compare
 * view back; "Clear filters" puts it back to every image. In Hebrew too.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale, formatDateTime, t } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import type { WiredApi } from '../../../support/wired-api';
import { seedGallery } from '../gallery/gallery-wired';
import { startWiredApp } from '../render-wired-app';

const LAKE = '7d6f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f';
const HARBOUR = '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d';
const START = Date.UTC(2026, 0, 15, 12, 0, 0);

afterEach(async () => {
  await applyLocale('en');
});

/** Five tasks, newest first: two of the lake compare, a plain one, three of the harbour's. */
function seedCompares(main: WiredApi): void {
  const compareOf = (group: string, slot: number) => ({
    compare: { group, slot, label: `Target ${String(slot)}` },
  });
  seedGallery(main, 6, (n) => {
    if (n < 2) return { prompt: 'a lake at dawn', ...compareOf(LAKE, n + 1) };
    if (n === 2) return { prompt: 'a plain kite' };
    return { prompt: 'נמל בערב', ...compareOf(HARBOUR, n - 2) };
  });
}

const shownIds = () => selectGalleryItems(useAppStore.getState()).map((item) => item.localId);

async function openGallery() {
  act(() => useAppStore.getState().setView('gallery'));
  await waitFor(() => expect(screen.queryByRole('form', { name: 'New task' })).toBeNull());
}

describe('the Compare group filter', () => {
  it('lists the groups, asks main for their images, and opens a group’s compare view', async () => {
    const { user, main } = await startWiredApp({ prepare: seedCompares });
    await openGallery();
    const select = await screen.findByRole('combobox', { name: 'Compare group' });
    // Each group by its first task's time: the lake's began a minute before its newest task.
    const lake = `${formatDateTime(START - 60_000)}: “\u2068a lake at dawn\u2069” (2 targets)`;
    const harbour = `${formatDateTime(START - 5 * 60_000)}: “\u2068נמל בערב\u2069” (3 targets)`;
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['All images', 'Any compare', lake, harbour]),
    );
    // No group chosen: nothing to open (hidden, no Tab stop).
    expect(screen.queryByRole('button', { name: 'Open compare' })).toBeNull();

    await user.selectOptions(select, 'any');
    await waitFor(() =>
      expect(main.callsTo('gallery:list').at(-1)).toMatchObject({ compared: true }),
    );
    await waitFor(() =>
      expect(shownIds()).toEqual([
        'seed-000000',
        'seed-000001',
        'seed-000003',
        'seed-000004',
        'seed-000005',
      ]),
    );

    await user.selectOptions(select, HARBOUR);
    await waitFor(() => expect(shownIds()).toEqual(['seed-000003', 'seed-000004', 'seed-000005']));
    expect(main.callsTo('gallery:list').at(-1)).toMatchObject({ compareGroup: HARBOUR });
    expect(main.callsTo('gallery:count').at(-1)).toMatchObject({ compareGroup: HARBOUR });

    // From the filter, Tab reaches "Open compare" and Enter brings the group's view back.
    select.focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open compare' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(3));
    expect(useAppStore.getState().compareGroup).toBe(HARBOUR);
    await user.keyboard('{Escape}');
    expect(useAppStore.getState().compareGroup).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(shownIds()).toHaveLength(6));
    expect((select as HTMLSelectElement).value).toBe('');
  });

  it('is absent while the library has no compare, and there once one has run', async () => {
    const { main } = await startWiredApp({ prepare: (wired) => void seedGallery(wired, 2) });
    await openGallery();
    await waitFor(() => expect(main.callsTo('compare:groups')).not.toHaveLength(0));
    expect(screen.queryByRole('combobox', { name: 'Compare group' })).toBeNull();
    const refused = await act(() =>
      useAppStore.getState().compareRun({
        prompts: ['a new compare'],
        targets: [{ provider: 'pictor' }, { provider: 'pictor' }],
      }),
    );
    expect(refused).toBeNull();
    act(() => useAppStore.getState().compareClose());
    const select = await screen.findByRole('combobox', { name: 'Compare group' });
    await waitFor(() =>
      expect(within(select).getAllByRole('option').at(-1)?.textContent).toMatch(
        /“\u2068a new compare\u2069” \(2 targets\)$/,
      ),
    );
  });

  it('speaks the window’s language, right to left', async () => {
    await startWiredApp({ prepare: seedCompares });
    await act(() => applyLocale('he'));
    expect(document.documentElement.dir).toBe('rtl');
    await openGallery();
    const select = await screen.findByRole('combobox', { name: t('gallery.compare.label') });
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(4));
    const texts = within(select)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(texts.slice(0, 2)).toEqual([t('gallery.compare.all'), t('gallery.compare.any')]);
    expect(texts[2]).toContain('\u2068a lake at dawn\u2069');
    expect(texts[2]).toContain('שני יעדים');
    expect(texts.join('\n')).not.toMatch(/targets|All images|Any compare/);
  });
});
