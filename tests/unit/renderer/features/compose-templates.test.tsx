/**
 * The compose form with a template, over the app's real wiring (main's template store, its plan
 * and run, the demo service): choosing a template and filling its variables shows every prompt
 * at once and main's plan is asked; Generate makes the tasks main expanded; over 100 prompts the
 * limit's sentence and "Use random 100"; a list the library lacks is said with its line and
 * column; Arabic prompts read right to left; over a hard cap main's own dialog (faked) decides.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OverCapQuestion } from '../../../../electron/ports/user-prompts';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { WiredApi } from '../../../support/wired-api';
import { connectService } from '../dialect-services';
import { startWiredApp } from '../render-wired-app';

const BODY = 'a {red|green|blue} {big|small} {{animal}} in {{place}}';
const form = () => screen.getByRole('form', { name: 'New task' });
const field = (name: string) => within(form()).getByRole('textbox', { name }) as HTMLInputElement;
const previewed = () =>
  within(screen.getByRole('region', { name: 'Prompts this template makes' }))
    .queryAllByRole('listitem')
    .map((item) => item.textContent);

async function withTemplate(main: WiredApi, name: string, body: string): Promise<string> {
  return (await main.runtime.core.templates.save({ name, body })).id;
}

async function chosen(body: string, options: Parameters<typeof startWiredApp>[0] = {}) {
  let id = '';
  const app = await startWiredApp({
    ...options,
    prepare: async (main) => {
      await options.prepare?.(main);
      id = await withTemplate(main, 'Colours', body);
    },
  });
  const select = within(form()).getByRole('combobox', { name: 'Template' });
  await waitFor(() => expect(within(select).getByRole('option', { name: 'Colours' })).toBeTruthy());
  await app.user.selectOptions(select, id);
  return { ...app, id };
}

/**
 * The user's service at $0.03 an image under a hard daily cap of $0.05: one task passes it, the
 * six the template makes ($0.18) do not.
 */
async function pricedUnderCap(wired: WiredApi): Promise<void> {
  await connectService(wired, 'pictor');
  const { costs } = wired.runtime.core;
  costs.setPrice({ provider: 'pictor', model: '', unit: 'USD', basis: 'image', micros: 30_000 });
  costs.setCap({ period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 50_000 });
}

describe('a template in the compose form', () => {
  it('fills two variables, previews 6 prompts, asks main’s plan, and Generate makes 6 tasks', async () => {
    const { user, main, id } = await chosen(BODY);
    await user.type(field('animal'), 'heron');
    await user.type(field('place'), 'the rain');
    await waitFor(() => expect(previewed()).toHaveLength(6));
    expect(previewed()[0]).toBe('a red big heron in the rain');
    expect(screen.getByText('6 prompts')).toBeTruthy();
    await waitFor(() =>
      expect(main.callsTo('templates:plan').at(-1)).toMatchObject({
        templateId: id,
        values: { animal: 'heron', place: 'the rain' },
      }),
    );
    await waitFor(() => expect(useAppStore.getState().composeTemplatePlan?.tasks).toBe(6));
    await user.click(within(form()).getByRole('button', { name: /^Generate/ }));
    await waitFor(() => expect(main.runtime.core.history.list({}).items).toHaveLength(6));
    const prompts = main.runtime.core.history.list({}).items.map((record) => record.request.prompt);
    expect(prompts.sort()).toEqual([...previewed()].sort());
    expect(main.callsTo('tasks:submit')).toEqual([]);
  });

  it('over 100 prompts says the limit and offers “Use random 100”, which draws 100', async () => {
    const { user } = await chosen('{a|b|c|d|e|f|g|h|i|j|k} {0|1|2|3|4|5|6|7|8|9}');
    expect(await screen.findByText('Expands to 110 prompts; the limit is 100.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Use random 100' }));
    await waitFor(() => expect(previewed()).toHaveLength(100));
    expect(new Set(previewed()).size).toBe(100);
    expect(useAppStore.getState().composeTemplate).toMatchObject({ mode: 'random' });
  });

  it('says a list the library lacks with its line and column', async () => {
    await chosen('a cat\nin __nowhere__');
    expect(
      await screen.findByText(
        'There is no word list “nowhere” (line 2, column 4). Create the list, or correct its name.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Generate/ })).toBeTruthy();
  });

  it('shows Arabic prompts right to left', async () => {
    const { user } = await chosen('{قطة|كلب} في {{place}}');
    await user.type(field('place'), 'الحديقة');
    await waitFor(() => expect(previewed()).toHaveLength(2));
    const items = within(
      screen.getByRole('region', { name: 'Prompts this template makes' }),
    ).getAllByRole('listitem');
    for (const item of items) expect(item.getAttribute('dir')).toBe('auto');
  });
});

describe('what Generate says it sends with a template', () => {
  it('names every task of the expansion, on the button and under the count', async () => {
    const { user } = await chosen(BODY);
    const generate = () => within(form()).getByRole('button', { name: /^Generate/ });
    const count = () => within(form()).getByRole('spinbutton', { name: 'Number of tasks' });
    await user.type(field('animal'), 'heron');
    await user.type(field('place'), 'the rain');
    await waitFor(() => expect(previewed()).toHaveLength(6));
    // Six prompts at one task each: six tasks, said where the count is typed and on the button.
    expect(generate().textContent).toBe('Generate 6');
    expect(count().getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('Tasks in all: 6 (1 per prompt)')).toBeTruthy();
    await user.clear(count());
    await user.type(count(), '2');
    expect(generate().textContent).toBe('Generate 12');
    expect(screen.getByText('Tasks in all: 12 (2 per prompt)')).toBeTruthy();
    // The figure is the one main plans and sends.
    await waitFor(() => expect(useAppStore.getState().composeTemplatePlan?.tasks).toBe(12));
    // Without the template, the count alone again.
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Template' }), '');
    expect(generate().textContent).toBe('Generate 2');
    expect(screen.queryByText(/^Tasks in all/)).toBeNull();
  });

  it('shows a hard cap over the whole expansion on Generate before it is pressed', async () => {
    const { user } = await chosen(BODY, {
      prepare: pricedUnderCap,
    });
    await user.type(field('animal'), 'heron');
    await user.type(field('place'), 'the rain');
    await waitFor(() => expect(useAppStore.getState().composeTemplatePlan?.hardCap).toBeTruthy());
    await waitFor(() => expect(useAppStore.getState().costPreview).not.toBeNull());
    expect(useAppStore.getState().costPreview?.caps).toEqual([]);
    const generate = within(form()).getByRole('button', { name: /^Generate 6/ });
    await waitFor(() => expect(generate.textContent).toContain('over your hard cap'));
    const described = generate.getAttribute('aria-describedby');
    expect(described && document.getElementById(described)?.textContent).toMatch(/cap/);
  });
});

describe('the price of a template run', () => {
  it('is said once, for the expansion, not also for the prompt box alone', async () => {
    const { user } = await chosen(BODY, {
      prepare: async (wired) => {
        await connectService(wired, 'pictor');
        wired.runtime.core.costs.setPrice({
          provider: 'pictor',
          model: '',
          unit: 'USD',
          basis: 'image',
          micros: 30_000,
        });
      },
    });
    await user.type(field('animal'), 'heron');
    await user.type(field('place'), 'the rain');
    await waitFor(() => expect(useAppStore.getState().composeTemplatePlan?.tasks).toBe(6));
    expect(
      await screen.findByText('This submit costs about $0.18 ($0.03 per task, estimate).'),
    ).toBeTruthy();
    // The prompt box's own line ($0.03 for one task) is not shown beside it.
    await waitFor(() => expect(useAppStore.getState().costPreview).not.toBeNull());
    expect(screen.getAllByText(/^This submit costs about/)).toHaveLength(1);
  });
});

describe('a template run over a hard cap', () => {
  it.each([false, true])('asks main’s own dialog; answered %s', async (answer) => {
    const asked: OverCapQuestion[] = [];
    const overCapPrompts = {
      confirmOverHardCap: async (question: OverCapQuestion) => {
        asked.push(question);
        return answer;
      },
    };
    const { user, main } = await chosen(BODY, {
      overCapPrompts,
      prepare: pricedUnderCap,
    });
    await user.type(field('animal'), 'heron');
    await user.type(field('place'), 'the rain');
    await waitFor(() => expect(useAppStore.getState().composeTemplatePlan?.hardCap).toBeTruthy());
    await act(async () => {
      await useAppStore.getState().composeSubmit();
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.tasks).toBe(6);
    expect(main.runtime.core.history.list({}).items).toHaveLength(answer ? 6 : 0);
  });
});
