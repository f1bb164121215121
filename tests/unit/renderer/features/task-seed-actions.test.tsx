/**
 * A task's seed used again from its details: the seed the service used shown with "Use this
 * seed" (the form takes the request, its options and that seed, locked), "Vary" (main sends the
 * same request on the task's own service with a new seed; the page names the task) and "Copy as command" (main copies its pictor and
 * cURL lines of the request as it ran, the key as `$SERVICE_API_KEY`; the page names the task).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { connectService } from '../dialect-services';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

const fileMain = sharedWiredMain();

const request = {
  prompt: 'A heron in "fog" at $5',
  model: 'fal-ai/flux/dev',
  params: { num_inference_steps: 20, output_format: 'png' },
};
const FAL = { provider: 'fal' as const, endpoint: 'https://queue.fal.run' };

/** What main put on the clipboard (the shared main's calls of every test so far). */
function copiedBy(main: { os: { calls: readonly { action: string; arg: string }[] } }): string[] {
  return main.os.calls.filter((call) => call.action === 'copyText').map((call) => call.arg);
}

async function openDetails(options: { main?: typeof fileMain } = { main: fileMain }) {
  const started = await startWiredApp({
    ...options,
    prepare: (main) =>
      void seedHistory(main, 1, () => ({
        status: 'completed',
        request,
        ...FAL,
        seed: 1234,
        images: [makeImage(0)],
      })),
  });
  await started.user.click(
    within(screen.getAllByRole('article')[0]!).getByRole('button', { name: 'Details' }),
  );
  return { ...started, details: screen.getByRole('dialog', { name: 'Task details' }) };
}

describe('a task’s seed', () => {
  it('"Use this seed" fills the form with the request, its options and the seed, locked', async () => {
    const { user, details } = await openDetails();
    expect(within(details).getByText('1234')).toBeTruthy();
    await user.click(within(details).getByRole('button', { name: 'Use this seed' }));
    expect(useAppStore.getState().composeDraft).toMatchObject({
      provider: 'fal',
      prompt: request.prompt,
      model: request.model,
      seed: '1234',
      seedLocked: true,
    });
    const form = screen.getByRole('form', { name: 'New task' });
    expect(within(form).getByRole('textbox', { name: 'Seed' })).toHaveProperty('value', '1234');
    expect(within(form).getByRole('textbox', { name: 'Steps' })).toHaveProperty('value', '20');
  });

  it('"Copy as command" has main copy its lines of the request as it ran, never a key', async () => {
    const { user, details, main } = await openDetails();
    const before = copiedBy(main).length;
    await user.click(within(details).getByRole('button', { name: 'Copy as command' }));
    await waitFor(() => expect(copiedBy(main)).toHaveLength(before + 1));
    // The page names the task; main reads its request, seed and service from its record.
    const [asked] = main.callsTo('tasks:copyCommand');
    expect(asked).toEqual({ localId: expect.any(String) });
    expect(main.callsTo('app:copyText')).toEqual([]);
    const [generate, curl] = (copiedBy(main).at(-1) ?? '').split('\n');
    expect(generate).toBe(
      'pictor generate --provider=fal --model=fal-ai/flux/dev --param=num_inference_steps=20 --param=output_format=png --seed=1234 \'--prompt=A heron in "fog" at $5\'',
    );
    expect(curl).toMatch(
      /^curl -X POST https:\/\/queue\.fal\.run\/fal-ai\/flux\/dev -H 'Authorization: Key '"\$SERVICE_API_KEY" /,
    );
  });

  // A main of its own: Vary sends a task.
  it('"Vary" has main send the task’s request as it ran to its service, with a new seed', async () => {
    const { user, details, main } = await openDetails({});
    await user.click(within(details).getByRole('button', { name: 'Vary' }));
    await waitFor(() => expect(main.callsTo('tasks:resend')).toHaveLength(1));
    // The page names the task (as for Rerun): main reads its request, graph and service.
    const [shown] = main.runtime.core.history.list({}).items;
    expect(main.callsTo('tasks:resend')).toEqual([
      { localIds: [shown?.localId], as: 'each', newSeed: true },
    ]);
    // What main sends (the graph the task ran, a seed it draws): hardening/hostile/vary-workflow.
    expect(main.callsTo('tasks:submit')).toEqual([]);
  });
});

describe('the form’s seed across submits', () => {
  // fal.ai at the demo speaking its dialect, with a key: the submits are accepted.
  it('is sent once when unlocked (the next submit draws anew), every time when locked', async () => {
    const { user, main } = await startWiredApp({
      prepare: async (wired) => void (await connectService(wired, 'fal')),
    });
    const form = screen.getByRole('form', { name: 'New task' });
    await useAppStore.getState().composeChooseService('fal');
    useAppStore.getState().composeSetDraft({ model: 'fal-ai/flux/dev' });
    const seed = await within(form).findByRole('textbox', { name: 'Seed' });
    const send = async (prompt: string) => {
      await user.type(within(form).getByRole('textbox', { name: 'Prompt' }), `${prompt}{Enter}`);
      await waitFor(() => expect(useAppStore.getState().composePending).toBe(0));
    };
    await user.type(seed, '55');
    await send('first');
    expect(seed).toHaveProperty('value', '');
    await user.type(seed, '66');
    await user.click(within(form).getByRole('checkbox', { name: 'Keep this seed' }));
    await send('second');
    await send('third');
    await send('fourth');
    const seeds = main.callsTo('tasks:submit').map((input) => input.request.seed);
    expect(seeds).toEqual([55, 66, 66, 66]);
    expect(useAppStore.getState().composeDraft).toMatchObject({ seed: '66', seedLocked: true });
  });
});

describe('the form’s Copy as command', () => {
  it('asks main for the lines of the request Generate would send, to the form’s service', async () => {
    const { user, main } = await startWiredApp({ main: fileMain });
    const form = screen.getByRole('form', { name: 'New task' });
    await user.click(within(form).getByRole('button', { name: 'Copy as command' }));
    // No prompt, no request: the prompt says why, nothing is asked.
    expect(useAppStore.getState().composeAttempted).toBe(true);
    expect(main.callsTo('tasks:copyCommand')).toEqual([]);
    await user.type(within(form).getByRole('textbox', { name: 'Prompt' }), 'it’s $HOME');
    const before = copiedBy(main).length;
    await user.click(within(form).getByRole('button', { name: 'Copy as command' }));
    await waitFor(() => expect(copiedBy(main)).toHaveLength(before + 1));
    const [asked] = main.callsTo('tasks:copyCommand');
    expect(asked && 'request' in asked ? asked.request.prompt : null).toBe('it’s $HOME');
    expect(copiedBy(main).at(-1)).toMatch(
      /^pictor generate --provider=demo .*'--prompt=it’s \$HOME'$/,
    );
  });
});
