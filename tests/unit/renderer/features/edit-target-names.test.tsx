/**
 * One name for one target, service first as the task rows and the compose form put a model on a
 * service: the edit panel's checkbox, its line in main's plan, the sentence naming a model that
 * would do what is asked, and the compare cell the edit opens, in English and in another language
 * (today's contract's service is named in the window's language). Over the app's real main: the
 * built-in demo's "demo-edit" upscales a real PNG.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { applyLocale, t } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

const main = sharedWiredMain();

afterEach(async () => {
  await applyLocale('en');
});

/** The app over main with one generated image, in `locale`, and the edit panel open on it. */
async function openPanel(operation: 'edit' | 'upscale', locale = 'en') {
  let made: TaskRecord | undefined;
  const app = await startWiredApp({
    main,
    prepare: async (wired) => void ([made] = await wired.generate(['A teapot on a table'])),
  });
  await act(() => applyLocale(locale));
  const ref = { localId: made!.localId, index: 0 };
  const start = operation === 'upscale' ? { operation, factor: 2 as const } : { operation };
  await act(() => useAppStore.getState().editOpenFromLibrary(ref, made!.request.prompt, start));
  return { ...app, panel: await screen.findByRole('dialog', { name: t('edit.title') }) };
}

const checkboxNames = (panel: HTMLElement) =>
  within(panel)
    .getAllByRole('checkbox')
    .map((box) => box.closest('label')?.textContent);

describe('a target’s name in the edit panel and compare', () => {
  it('is the service then the model in the checkbox, the plan and the compare cell', async () => {
    const { user, panel } = await openPanel('upscale');
    expect(checkboxNames(panel)).toEqual([
      'Image task service (demo) · demo-edit',
      // No key for these: named as the compose form's Service box names them.
      'fal.ai (no key) · fal-ai/clarity-upscaler',
      'Replicate (no key) · nightmareai/real-esrgan',
      'Alibaba Cloud DashScope (no key) · wanx2.1-imageedit',
    ]);
    await user.click(
      within(panel).getByRole('checkbox', { name: 'Image task service (demo) · demo-edit' }),
    );
    await waitFor(() =>
      expect(within(panel).getByTestId('edit-route-1').textContent).toBe(
        'Target 1: Image task service (demo) · demo-edit Inside the request',
      ),
    );
    await user.click(within(panel).getByRole('button', { name: 'Send' }));
    const compare = await screen.findByRole('dialog', { name: 'Compare' });
    expect(
      await within(compare).findByRole('gridcell', {
        name: 'Image task service (demo) · demo-edit',
      }),
    ).toBeTruthy();
  });

  it('names a model that would do it by the same name', async () => {
    const { panel } = await openPanel('edit');
    const expand = within(panel).getByRole('radio', { name: 'Expand the canvas' });
    const hint = document.getElementById(expand.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe('flux-pro-1.0-expand on Black Forest Labs can expand an image');
    expect(checkboxNames(panel)).toContain('Black Forest Labs (no key) · flux-kontext-pro');
  });

  it('names today’s contract’s service in the window’s language in the checkbox and the plan alike', async () => {
    const { user, panel } = await openPanel('upscale', 'de');
    const name = `${t('compose.service.demo', { service: t('service.pictor') })} · demo-edit`;
    expect(name).not.toContain('Image task service');
    await user.click(within(panel).getByRole('checkbox', { name }));
    await waitFor(() =>
      expect(within(panel).getByTestId('edit-route-1').textContent).toBe(
        `${t('edit.target', { slot: 1, label: name })} ${t('edit.goes.inline')}`,
      ),
    );
  });
});
