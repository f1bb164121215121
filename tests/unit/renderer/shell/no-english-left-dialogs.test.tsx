/**
 * No English is left in German and Arabic in the dialogs of the fifth walk (english-left.ts says
 * what counts as a leftover): the Templates dialog (its list, its editor with the syntax help
 * open, and the live preview of a body that expands and of one that does not parse) and the
 * compose form with a template chosen; the Compare view in its grid and 2-up; the "Edit an image"
 * panel waiting for a painted area and for a model, each with its sentence of why Send waits.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale, t } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import type { WiredApi } from '../../../support/wired-api';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { englishLeft, languageTexts } from './english-left';

const GROUP = '7d6f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f';
const PROMPT = 'A teapot on a table';

afterEach(async () => {
  document.documentElement.dir = 'ltr';
  await act(() => applyLocale('en'));
});

/** Three targets of one compare: two completed, one refused with 402 (as compare-view.test). */
function seedGroup(main: WiredApi): void {
  const labels = ['fal.ai · fal-ai/flux/dev', 'Black Forest Labs · flux-pro-1.1', 'Pictor demo'];
  seedHistory(main, 3, (n) => ({
    localId: `cmp-${String(n + 1)}`,
    prompt: 'a lake at dawn',
    ...(n === 1
      ? {
          status: 'failed',
          images: [],
          error: { kind: 'credits', message: 'No credits left.', httpStatus: 402 },
        }
      : { status: 'completed', images: [makeImage(0), makeImage(1)] }),
    ...(n === 2 ? { cost: { source: 'free' as const } } : {}),
    compare: { group: GROUP, slot: n + 1, label: labels[n] ?? '' },
  }));
}

/** Looks for English in `tag` as each step of `walk` leaves the screen; expects none. */
async function noEnglish(tag: string, walk: (look: (where: string) => void) => Promise<void>) {
  await act(() => applyLocale(tag));
  const language = languageTexts(tag);
  const found = new Map<string, string>();
  await walk((where) => englishLeft(language, where, found));
  expect(Object.fromEntries(found)).toEqual({});
}

describe.each(['de', 'ar'])('in %s, no English is left', { timeout: 120_000 }, (tag) => {
  it('in the Templates dialog, its editor’s syntax help and preview, and the form with a template', async () => {
    let id = '';
    const { user } = await startWiredApp({
      prepare: async (main) => {
        const saved = await main.runtime.core.templates.save({
          name: 'Portraits',
          body: 'a {red|blue} portrait of {{animal=a cat}} {{prompt}}',
        });
        id = saved.id;
      },
    });
    await noEnglish(tag, async (look) => {
      const form = await screen.findByRole('form', { name: t('compose.label') });
      await waitFor(() => expect(useAppStore.getState().templates.length).toBe(1));
      act(() => useAppStore.getState().composeSetDraft({ prompt: PROMPT }));
      act(() => useAppStore.getState().composeChooseTemplate(id));
      await within(form).findByRole('combobox', { name: t('compose.template.label') });
      look('the form with a template');
      await user.click(within(form).getByRole('button', { name: t('compose.template.manage') }));
      const dialog = await screen.findByRole('dialog', { name: t('templates.manage.title') });
      look('the Templates dialog');
      await user.click(
        within(dialog).getByRole('button', {
          name: t('templates.manage.editNamed', { name: 'Portraits' }),
        }),
      );
      const editor = within(dialog).getByRole('form', { name: t('templates.manage.editor') });
      await user.click(within(editor).getByText(t('templates.manage.syntaxTitle')));
      await within(editor).findByRole('region', { name: t('templates.manage.previewTitle') });
      look('the template editor, its syntax help and preview');
      const body = within(editor).getByRole('textbox', { name: t('templates.manage.body') });
      await user.clear(body);
      await user.type(body, 'a {{{{red|blue');
      look('the template editor, a body that does not parse');
      await user.click(within(dialog).getByRole('button', { name: t('templates.manage.cancel') }));
      await user.click(within(dialog).getByRole('button', { name: t('templates.manage.new') }));
      look('a new template');
    });
  });

  it('in the Compare view, its grid and 2-up', async () => {
    const { user } = await startWiredApp({ prepare: seedGroup });
    await noEnglish(tag, async (look) => {
      await act(() => useAppStore.getState().compareOpen(GROUP));
      const view = await screen.findByRole('dialog', { name: t('compare.title') });
      await waitFor(() => expect(within(view).getAllByRole('gridcell')).toHaveLength(3));
      look('the compare view');
      await user.click(within(view).getByRole('button', { name: t('compare.twoUp') }));
      look('the compare view, 2-up');
    });
  });

  it('in the Edit an image panel, with why Send waits', async () => {
    let localId = '';
    await startWiredApp({
      prepare: async (main) => void ([{ localId = '' } = {}] = await main.generate([PROMPT])),
    });
    await noEnglish(tag, async (look) => {
      const open = async (operation: 'fill' | 'edit', waits: string) => {
        const state = useAppStore.getState();
        await act(() => state.editOpenFromLibrary({ localId, index: 0 }, PROMPT, { operation }));
        const panel = await screen.findByRole('dialog', { name: t('edit.title') });
        await within(panel).findByRole('button', { name: waits });
        look(`edit, ${operation}`);
        act(() => useAppStore.getState().editClose());
      };
      await open('fill', t('edit.maskNeeded'));
      await open('edit', t('edit.targetsNeeded'));
    });
  });
});
