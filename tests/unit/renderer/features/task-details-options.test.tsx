/**
 * Task details list the model's own options the task asked for: a common one by Pictor's label in
 * the reader's language, any other by the name its service documents, a number in the reader's
 * writing and a switch in words. A task that asked for none shows no such row.
 */
import { act, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import type { ParamValues } from '../../../../shared/domain/model-params';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

const fileMain = sharedWiredMain();

afterEach(async () => {
  await act(() => applyLocale('en'));
});

const PARAMS: ParamValues = {
  num_inference_steps: 28,
  guidance_scale: 3.5,
  enable_safety_checker: false,
  acceleration: 'high',
  output_format: 'png',
};

/** Opens the details of a fal task that asked for `params`; gives the dialog. */
async function detailsOf(params: ParamValues | undefined): Promise<HTMLElement> {
  const { user } = await startWiredApp({
    main: fileMain,
    prepare: (main) =>
      void seedHistory(main, 1, () => ({
        status: 'completed',
        provider: 'fal',
        endpoint: 'https://queue.fal.run',
        request: {
          prompt: 'A lighthouse',
          model: 'fal-ai/flux/dev',
          ...(params ? { params } : {}),
        },
      })),
  });
  await user.click(
    within(screen.getAllByRole('article')[0]!).getByRole('button', { name: 'Details' }),
  );
  return screen.getByRole('dialog', { name: 'Task details' });
}

/** The options' `[label, value]` pairs under the row named `label`. */
function optionsIn(details: HTMLElement, label: string): Array<[string, string]> {
  const row = within(details).getByText(label, { selector: 'dt' }).nextElementSibling!;
  return [...row.querySelectorAll('.details__option')].map((option) => [
    option.querySelector('dt')?.textContent ?? '',
    option.querySelector('dd')?.textContent ?? '',
  ]);
}

it('lists each option by its label and value, the common ones in Pictor’s words', async () => {
  const details = await detailsOf(PARAMS);
  expect(optionsIn(details, 'Model options')).toEqual([
    ['Steps', '28'],
    ['Guidance', '3.5'],
    ['Safety', 'Off'],
    ['acceleration', 'high'],
    ['Output format', 'png'],
  ]);
});

it('says them in German: labels, a decimal comma, a switch in words', async () => {
  await detailsOf(PARAMS);
  // The window redraws in the language shown (keyed on it): the dialog is found again.
  await act(() => applyLocale('de'));
  const details = screen.getByRole('dialog', { name: 'Aufgabendetails' });
  expect(optionsIn(details, 'Modelloptionen')).toEqual([
    ['Schritte', '28'],
    ['Guidance', '3,5'],
    ['Sicherheit', 'Aus'],
    ['acceleration', 'high'],
    ['Ausgabeformat', 'png'],
  ]);
});

it('shows no options row for a task that asked for none', async () => {
  const details = await detailsOf(undefined);
  expect(within(details).queryByText('Model options', { selector: 'dt' })).toBeNull();
});
