/**
 * Compare in the window, over the real renderer and the app's real main (render-wired-app.tsx): the plan
 * dialog from the compose form lists a target left out with main's sentence; the compare view
 * shows each target's cell with its outcome (a failed one, 402, with its reason) and the seed
 * its service said (in any language, its digits as the service wrote them); P, X and 1–5
 * triage the focused cell through the triage store (so Undo takes them back), a key pressed again
 * before main answered it taking it back as pressed after; Ctrl+Enter keeps
 * the winner and rejects the rest as one step that one Undo takes back; ←/→ follow the reading
 * direction; Tab stays inside the view; Esc closes and the focus goes back to what opened it; a
 * task row of a compare opens its group again. The dialog says what main
 * left out, and why nothing can be sent, in the window's language.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { localeInfo, type LocaleInfo } from '../../../../shared/domain/locales';
import { flagOf, ratingOf } from '../../../../shared/domain/triage';
import { MainCatalogue } from '../../../../shared/i18n/main-catalogue';
import { MAIN_TRANSLATIONS } from '../../../../shared/i18n/main-translations';
import { applyLocale, t } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import type { WiredApi } from '../../../support/wired-api';
import { seedHistory, startWiredApp } from '../render-wired-app';

const GROUP = '7d6f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f';

afterEach(async () => {
  document.documentElement.dir = 'ltr';
  await applyLocale('en');
});

/** The seed the first target's service said it used (the other two said none). */
const SEED = 9_007_199_254_740_991;

/** Three targets of one compare: two completed with two images each, one refused with 402. */
function seedGroup(main: WiredApi): void {
  const labels = [
    'fal.ai · fal-ai/flux/dev',
    'Black Forest Labs · flux-pro-1.1',
    'Replicate · sdxl',
  ];
  seedHistory(main, 3, (n) => ({
    localId: `cmp-${String(n + 1)}`,
    prompt: 'a lake at dawn',
    ...(n === 1
      ? {
          status: 'failed',
          images: [],
          error: {
            kind: 'credits',
            message: 'The service wants payment: no credits left.',
            httpStatus: 402,
          },
        }
      : { status: 'completed', images: [makeImage(0), makeImage(1)] }),
    ...(n === 0 ? { seed: SEED } : {}),
    // The third ran free (as the built-in demo does).
    ...(n === 2 ? { cost: { source: 'free' as const } } : {}),
    compare: { group: GROUP, slot: n + 1, label: labels[n] ?? '' },
  }));
}

async function openGroup() {
  await act(() => useAppStore.getState().compareOpen(GROUP));
  await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(3));
  return screen.getByRole('dialog', { name: 'Compare' });
}

const cell = (n: number) => screen.getAllByRole('gridcell')[n]!;
const images = (main: WiredApi, localId: string) =>
  main.runtime.core.history.get(localId)?.images ?? [];

describe('the compare view', () => {
  it('shows each target’s cell with its outcome; a failed one keeps its cell and reason', async () => {
    await startWiredApp({ prepare: seedGroup });
    await openGroup();
    // Each cell is named by its visible label (axe's label-content-name-mismatch).
    expect(screen.getByRole('gridcell', { name: 'fal.ai · fal-ai/flux/dev' })).toBe(cell(0));
    expect(within(cell(0)).getByText('a lake at dawn')).toBeTruthy();
    expect(within(cell(0)).getAllByRole('img')).toHaveLength(2);
    expect(within(cell(0)).getByText('Completed')).toBeTruthy();
    expect(screen.getByRole('gridcell', { name: 'Black Forest Labs · flux-pro-1.1' })).toBe(
      cell(1),
    );
    expect(
      within(cell(1)).getByText('Failed: The service wants payment: no credits left.'),
    ).toBeTruthy();
    expect(within(cell(1)).getByText('No image')).toBeTruthy();
    expect(within(cell(2)).getByText(/Replicate · sdxl/)).toBeTruthy();
    // Said as the task rows say it, not "Cost not known".
    expect(within(cell(2)).getByText('free (demo)')).toBeTruthy();
  });

  it('shows the seed a target’s service said, and nothing for one that said none', async () => {
    await startWiredApp({ prepare: seedGroup });
    await openGroup();
    expect(within(cell(0)).getByText('Seed 9007199254740991')).toBeTruthy();
    for (const n of [1, 2]) expect(within(cell(n)).queryByText(/^Seed/)).toBeNull();
  });

  it('writes the seed in its own digits in every language, never grouped or in local numerals', async () => {
    await startWiredApp({ prepare: seedGroup });
    await openGroup();
    try {
      for (const [tag, text] of [
        ['ar', 'البذرة 9007199254740991'],
        ['de', 'Seed 9007199254740991'],
        ['ja', 'シード 9007199254740991'],
      ] as const) {
        await act(() => applyLocale(tag));
        await waitFor(() => expect(within(cell(0)).getByText(text)).toBeTruthy());
      }
    } finally {
      await act(() => applyLocale('en'));
    }
  });

  it('P, X and 1–5 triage the focused cell’s images through the triage store; Undo takes each back', async () => {
    const { user, main } = await startWiredApp({ prepare: seedGroup });
    await openGroup();
    await waitFor(() => expect(document.activeElement).toBe(cell(0)));
    await user.keyboard('p');
    await waitFor(() => expect(images(main, 'cmp-1').map(flagOf)).toEqual(['pick', 'pick']));
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(cell(2));
    await user.keyboard('x');
    await waitFor(() => expect(images(main, 'cmp-3').map(flagOf)).toEqual(['reject', 'reject']));
    for (const stars of [1, 2, 3, 4, 5]) {
      await user.keyboard(String(stars));
      await waitFor(() => expect(images(main, 'cmp-3').map(ratingOf)).toEqual([stars, stars]));
    }
    // The view shows what main wrote once main has sent it (\`tasks:updated\`, after the history
    // worker's commit the waits above see): waited for, not read at once.
    await waitFor(() => expect(within(cell(2)).getAllByText(/Reject ★★★★★/)).toHaveLength(2));
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(images(main, 'cmp-3').map(ratingOf)).toEqual([4, 4]));
    expect(main.callsTo('triage:apply')).toHaveLength(7);
  });

  it('a key pressed again before main answered it takes it back, as pressed after', async () => {
    const { user, main } = await startWiredApp({ prepare: seedGroup });
    await openGroup();
    await waitFor(() => expect(document.activeElement).toBe(cell(0)));
    // Each change held on its way to main: the second key reads the images as the first leaves them.
    for (const [keys, changes] of [
      [
        '55',
        [
          { kind: 'rating', rating: 5 },
          { kind: 'rating', rating: 0 },
        ],
      ],
      [
        'pp',
        [
          { kind: 'flag', flag: 'pick' },
          { kind: 'flag', flag: 'none' },
        ],
      ],
      [
        '3x3',
        [
          { kind: 'rating', rating: 3 },
          { kind: 'flag', flag: 'reject' },
          { kind: 'rating', rating: 0 },
        ],
      ],
    ] as const) {
      const before = main.callsTo('triage:apply').length;
      const held = main.intercept.request['triage:apply'].hold();
      await user.keyboard(keys);
      await waitFor(() => expect(held.waiting).toBe(changes.length));
      held.release();
      await waitFor(() =>
        expect(main.callsTo('triage:apply')).toHaveLength(before + changes.length),
      );
      expect(
        main
          .callsTo('triage:apply')
          .slice(before)
          .map((input) => input.change),
      ).toEqual(changes);
    }
    // Both at once: the ratings were 0 already before the last keys (a case before ends on 0),
    // so a wait on them alone could pass before main's answers to the last keys came.
    await waitFor(() => {
      expect(images(main, 'cmp-1').map(ratingOf)).toEqual([0, 0]);
      expect(images(main, 'cmp-1').map(flagOf)).toEqual(['reject', 'reject']);
    });
  });

  it('reads the triage keys by their place, and a key every image answers already takes it back', async () => {
    const { main } = await startWiredApp({ prepare: seedGroup });
    await openGroup();
    await waitFor(() => expect(document.activeElement).toBe(cell(0)));
    // AZERTY writes "&" on Digit1's place and "p" stays P: the place decides.
    fireEvent.keyDown(cell(0), { code: 'Digit1', key: '&' });
    await waitFor(() => expect(images(main, 'cmp-1').map(ratingOf)).toEqual([1, 1]));
    fireEvent.keyDown(cell(0), { code: 'KeyP', key: 'p' });
    await waitFor(() => expect(images(main, 'cmp-1').map(flagOf)).toEqual(['pick', 'pick']));
    // P again: every image is a pick already, so it unflags them, as in the grid.
    fireEvent.keyDown(cell(0), { code: 'KeyP', key: 'p' });
    await waitFor(() => expect(images(main, 'cmp-1').map(flagOf)).toEqual(['none', 'none']));
    // U and 0 clear.
    fireEvent.keyDown(cell(0), { code: 'Digit0', key: 'à' });
    await waitFor(() => expect(images(main, 'cmp-1').map(ratingOf)).toEqual([0, 0]));
  });

  it('leaves the keys of its buttons and its A/B divider to them', async () => {
    const { user, main } = await startWiredApp({ prepare: seedGroup });
    const view = await openGroup();
    // Enter on a button is the button's, not "open the focused cell".
    act(() => within(view).getByRole('button', { name: 'Cancel all' }).focus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(main.callsTo('compare:cancel')).toHaveLength(1));
    // A digit on a button rates nothing.
    await user.keyboard('3');
    expect(main.callsTo('triage:apply')).toHaveLength(0);
    // In 2-up (of the third target and the first: both have images) the arrows move the divider.
    await user.click(cell(2));
    await user.click(within(view).getByRole('button', { name: '2-up' }));
    await user.click(await within(view).findByRole('button', { name: 'A/B divider' }));
    const divider = await within(view).findByRole('slider', { name: 'A/B divider' });
    // The view does not take the arrows (the range input's own move is the browser's: jsdom has
    // none, so what is checked is that nothing prevented it).
    expect(fireEvent.keyDown(divider, { key: 'ArrowRight', code: 'ArrowRight' })).toBe(true);
    expect(fireEvent.keyDown(divider, { key: 'Enter', code: 'Enter' })).toBe(true);
    // Escape, from anywhere in the view, closes it.
    fireEvent.keyDown(divider, { key: 'Escape', code: 'Escape' });
    await waitFor(() => expect(view.isConnected).toBe(false));
  });

  it('Ctrl+Enter keeps the winner and rejects the rest in one step; one Undo takes it all back', async () => {
    const { user, main } = await startWiredApp({ prepare: seedGroup });
    await openGroup();
    await user.click(cell(2));
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(images(main, 'cmp-3').map(flagOf)).toEqual(['pick', 'pick']));
    expect(images(main, 'cmp-1').map(flagOf)).toEqual(['reject', 'reject']);
    expect(main.callsTo('triage:applyEach')).toHaveLength(1);
    expect(main.callsTo('triage:apply')).toHaveLength(0);
    await waitFor(() =>
      expect(screen.getByText('Kept the winner and rejected 2 other images.')).toBeTruthy(),
    );
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(images(main, 'cmp-3').map(flagOf)).toEqual(['none', 'none']));
    expect(images(main, 'cmp-1').map(flagOf)).toEqual(['none', 'none']);
    expect(main.callsTo('triage:undo')).toHaveLength(1);
  });

  it.each([
    ['ltr', '{ArrowRight}', 1],
    ['ltr', '{ArrowLeft}', 0],
    ['rtl', '{ArrowLeft}', 1],
    ['rtl', '{ArrowRight}', 0],
    ['ltr', '{Tab}', 1],
    ['rtl', '{Tab}', 1],
  ] as const)('in a %s window %s moves to cell %i', async (dir, key, to) => {
    document.documentElement.dir = dir;
    const { user } = await startWiredApp({ prepare: seedGroup });
    await openGroup();
    await waitFor(() => expect(document.activeElement).toBe(cell(0)));
    await user.keyboard(key);
    expect(document.activeElement).toBe(cell(to));
  });

  it('keeps Tab inside the view: past the last cell to its first button and back', async () => {
    const { user } = await startWiredApp({ prepare: seedGroup });
    const view = await openGroup();
    await waitFor(() => expect(document.activeElement).toBe(cell(0)));
    await user.keyboard('{Tab}{Tab}');
    expect(document.activeElement).toBe(cell(2));
    // Past the last cell: the view's first button, never the page behind.
    await user.keyboard('{Tab}');
    const first = within(view).getAllByRole('button')[0]!;
    expect(document.activeElement).toBe(first);
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(document.activeElement).toBe(cell(2));
    // A click on the page behind does not take the focus out of it.
    const behind = screen.getByRole('form', { name: 'New task' });
    await user.click(within(behind).getAllByRole('textbox')[0]!);
    expect(view.contains(document.activeElement)).toBe(true);
  });

  it('gives the focus back to what opened it when it closes', async () => {
    const { user } = await startWiredApp({ prepare: seedGroup });
    const opener = (await screen.findAllByRole('button', { name: 'Open compare' }))[0]!;
    await user.click(opener);
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(3));
    await waitFor(() => expect(document.activeElement).toBe(cell(0)));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Compare' })).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('Esc closes the view; a compare task’s row opens its group again', async () => {
    const { user } = await startWiredApp({ prepare: seedGroup });
    await openGroup();
    await waitFor(() => expect(document.activeElement).toBe(cell(0)));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Compare' })).toBeNull();
    expect(useAppStore.getState().compareGroup).toBeNull();
    await user.click(screen.getAllByRole('button', { name: 'Open compare' })[0]!);
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(3));
  });
});

describe('the plan dialog', () => {
  it('lists a target with no key left out with main’s sentence, runs the rest and opens the view', async () => {
    const { user, main } = await startWiredApp();
    act(() =>
      useAppStore.getState().composeSetDraft({ prompt: 'a lake at dawn', provider: 'pictor' }),
    );
    await user.click(screen.getByRole('button', { name: 'Compare…' }));
    const dialog = screen.getByRole('dialog', { name: 'Compare on several services' });
    // The second row is fal.ai, whose key this app does not have: main leaves it out, saying why.
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([expect.stringMatching(/^Left out: fal\.ai(?!.*Left out).+/)]),
    );
    expect(main.callsTo('compare:plan').at(-1)).toEqual({
      prompts: ['a lake at dawn'],
      targets: [
        expect.objectContaining({ provider: 'pictor' }),
        expect.objectContaining({ provider: 'fal' }),
      ],
    });
    expect(JSON.stringify(main.callsTo('compare:plan'))).not.toContain('baseUrl');
    // A double click sends one compare: the button waits for main's answer.
    await user.dblClick(within(dialog).getByRole('button', { name: 'Compare' }));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(1));
    expect(screen.queryByRole('dialog', { name: 'Compare on several services' })).toBeNull();
    expect(main.callsTo('compare:run')).toHaveLength(1);
  });

  it('says what main leaves out, and why nothing can be sent, in the window’s language', async () => {
    const german = new MainCatalogue(localeInfo('de') as LocaleInfo, MAIN_TRANSLATIONS['de']);
    const { user } = await startWiredApp();
    await act(() => applyLocale('de'));
    act(() => useAppStore.getState().composeSetDraft({ prompt: 'ein See', provider: 'fal' }));
    await user.click(screen.getByRole('button', { name: t('compare.button') }));
    const dialog = screen.getByRole('dialog', { name: t('compare.dialog.title') });
    const items = () =>
      within(dialog)
        .queryAllByRole('listitem')
        .map((item) => item.textContent);
    // fal.ai has no key in this app: left out with main's sentence, in German.
    await waitFor(() =>
      expect(items()).toEqual([expect.stringMatching(/^Ausgelassen: fal\.ai.*Es wurde nichts/)]),
    );
    // The second row on BFL, which has no key either: nothing is left to send.
    const second = within(dialog).getAllByRole('group')[1]!;
    await user.selectOptions(within(second).getByRole('combobox'), 'bfl');
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      german.text('error.compare.noTargetLeft'),
    );
    expect(dialog.textContent).not.toMatch(/Nothing was sent|No target of this compare/);
    const run = within(dialog).getByRole('button', { name: t('compare.dialog.run') });
    expect((run as HTMLButtonElement).disabled).toBe(true);
  });
});
