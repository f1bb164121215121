/**
 * The service travels with the request: the compose form's submit and its cost preview carry the
 * service chosen in the form, at the address Settings gives it, and never wait for (or read) the
 * setting that remembers the choice; "Use this prompt" brings a task's service back with its model.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { DemoService } from '../../../../electron/demo-service/types';
import { connectService } from '../dialect-services';
import { seedHistory, startWiredApp } from '../render-wired-app';

const form = () => screen.getByRole('form', { name: 'New task' });
async function submitPrompt(
  user: { type(element: Element, text: string): Promise<void> },
  text: string,
) {
  await user.type(within(form()).getByRole('textbox', { name: 'Prompt' }), `${text}{Enter}`);
}

describe('the compose form’s target', () => {
  it('writes no setting when submitting: the submit names the service itself', async () => {
    const { user, main } = await startWiredApp();
    await submitPrompt(user, 'a heron');
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
    expect(main.callsTo('settings:update')).toEqual([]);
    expect(main.callsTo('tasks:submit')[0]?.target).toEqual({
      provider: 'pictor',
      endpoint: 'demo:',
    });
  });

  // Fault: main refuses the setting that remembers the service (a read-only settings file), through
  // the contract's interceptor.
  it('sends the service chosen in the form even while the setting that remembers it is refused', async () => {
    const { user, main } = await startWiredApp({
      prepare: (m) => {
        m.runtime.settings.update({ serviceBaseUrls: { bfl: 'https://api.eu.bfl.ai' } });
        m.intercept.request['settings:update'].fail({
          code: 'failed',
          message: 'The settings file is read-only.',
        });
      },
    });
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Service' }), 'bfl');
    await submitPrompt(user, 'a lake at night');
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
    expect(main.callsTo('tasks:submit')[0]).toMatchObject({
      request: { prompt: 'a lake at night', model: 'flux-pro-1.1' },
      target: { provider: 'bfl', endpoint: 'https://api.eu.bfl.ai' },
    });
    expect(main.runtime.settings.get().provider).toBe('pictor');
  });

  it('names today’s contract at its address once its key is ready, the demo before', async () => {
    // Today's contract at a service of the user's own, its key checked there when saved.
    let service: DemoService | undefined;
    const { user, main } = await startWiredApp({
      prepare: async (main) => void (service = await connectService(main, 'pictor')),
    });
    await submitPrompt(user, 'a gull');
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
    expect(main.callsTo('tasks:submit')[0]?.target).toEqual({
      provider: 'pictor',
      endpoint: service?.url,
    });
    // Sent there, not to the built-in demo.
    await waitFor(() => expect(service?.log.submits).toHaveLength(1));
  });

  it('asks the cost preview about the same service the submit would go to', async () => {
    const { user, main } = await startWiredApp();
    await user.selectOptions(
      within(form()).getByRole('combobox', { name: 'Service' }),
      'dashscope',
    );
    await waitFor(() =>
      expect(main.callsTo('costs:preview').at(-1)).toMatchObject({
        target: { provider: 'dashscope', endpoint: 'https://dashscope.aliyuncs.com' },
        request: { model: 'wanx2.1-t2i-turbo' },
      }),
    );
  });

  it('"Use this prompt" brings back the task’s service with its model', async () => {
    let bfl: DemoService | undefined;
    const { user, main } = await startWiredApp({
      prepare: async (main) => {
        bfl = await connectService(main, 'bfl');
        seedHistory(main, 1, () => ({
          status: 'completed',
          provider: 'bfl',
          endpoint: bfl?.url,
          request: { prompt: 'A heron', model: 'flux-2-pro' },
        }));
      },
    });
    const row = screen.getAllByRole('article')[0]!;
    await user.click(within(row).getByRole('button', { name: 'Use this prompt' }));
    expect(useAppStore.getState().composeDraft).toMatchObject({
      provider: 'bfl',
      model: 'flux-2-pro',
    });
    await act(async () => {
      await useAppStore.getState().composeSubmit();
    });
    expect(main.callsTo('tasks:submit')[0]?.target).toEqual({
      provider: 'bfl',
      endpoint: bfl?.url,
    });
    await waitFor(() => expect(bfl?.log.submits).toHaveLength(1));
  });
});
