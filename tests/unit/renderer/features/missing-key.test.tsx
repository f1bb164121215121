/**
 * A missing key is named and one click away: the compose form's service list marks the services
 * without a key; choosing one says which service has no key, with "Add your <service> key" as a
 * link to its Settings section (its key field focused); a submit main refuses for that reason
 * leads to the same link; banners about the previous service go when the service changes.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectTaskItems } from '../../../../renderer/store/record-selectors';
import type { WiredApi } from '../../../support/wired-api';
import { connectService } from '../dialect-services';
import { startWiredApp } from '../render-wired-app';

const DASHSCOPE = 'Alibaba Cloud DashScope';
const form = () => screen.getByRole('form', { name: 'New task' });
const serviceList = () => within(form()).getByRole('combobox', { name: 'Service' });
const prompt = () => within(form()).getByRole('textbox', { name: 'Prompt' });

/** fal.ai at a service of its own, with a key it accepted when it was saved. */
async function connectFal(main: WiredApi): Promise<void> {
  await connectService(main, 'fal');
}

async function choose(
  user: { selectOptions(element: Element, value: string): Promise<void> },
  provider: string,
): Promise<void> {
  await user.selectOptions(serviceList(), provider);
}

describe('a service without a key in the compose form', () => {
  it('is marked in the service list; today’s contract (named as the demo standing in) and a service with a key are not', async () => {
    await startWiredApp({ prepare: connectFal });
    const names = within(serviceList())
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(names).toEqual([
      'Image task service (demo)',
      'fal.ai',
      'Replicate (no key)',
      `${DASHSCOPE} (no key)`,
      'Black Forest Labs (no key)',
      // A local ComfyUI works with no key: it is not marked.
      'ComfyUI',
    ]);
  });

  it('is named under the form, with a link to its key in Settings', async () => {
    const { user } = await startWiredApp({ prepare: connectFal });
    expect(screen.queryByRole('link', { name: /^Add your/ })).toBeNull();
    await choose(user, 'dashscope');
    within(form()).getByText(
      `Pictor has no API key for ${DASHSCOPE} yet, so nothing can be sent there.`,
    );
    const link = within(form()).getByRole('link', { name: `Add your ${DASHSCOPE} key` });
    expect(link.getAttribute('href')).toBe('#settings-service-dashscope');
    // A service with a key needs no notice.
    await choose(user, 'fal');
    expect(within(form()).queryByRole('link', { name: /^Add your/ })).toBeNull();
    await choose(user, 'dashscope');
    await user.click(within(form()).getByRole('link', { name: `Add your ${DASHSCOPE} key` }));
    expect(useAppStore.getState().view).toBe('settings');
    const section = await screen.findByRole('region', { name: DASHSCOPE });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(section).getByLabelText(`${DASHSCOPE} API key`)),
    );
  });

  it('leads a submit main refuses for want of a key to the link, without a second message', async () => {
    // Main's own refusal: no DashScope key, so nothing goes to dashscope.aliyuncs.com.
    const { user, main } = await startWiredApp();
    await choose(user, 'dashscope');
    await user.type(prompt(), 'a red kite{Enter}');
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
    const link = within(form()).getByRole('link', { name: `Add your ${DASHSCOPE} key` });
    await waitFor(() => expect(document.activeElement).toBe(link));
    expect(within(form()).queryByText(/Nothing was sent/)).toBeNull();
    // What was typed stays.
    expect(prompt()).toHaveProperty('value', 'a red kite');
    expect(main.runtime.core.history.taskIds({}, 10)).toEqual([]);
  });
});

describe('banners about the previous service', () => {
  // Fault: the submits answered in main's place (the contract's interceptor): a refusal of the
  // key sent before the first answer, then a submit main fails (the history could not be written).
  it('go when the compose form’s service changes', async () => {
    const { user, main } = await startWiredApp({
      prepare: connectFal,
    });
    const { request, event } = main.intercept;
    // A refusal of today's contract's key, and the submit error beside it.
    request['tasks:submit'].handle(({ request: asked }) => {
      event['tasks:updated'].inject([
        {
          change: 'refused',
          localId: 'gone-1',
          request: asked,
          kind: 'auth',
          message: 'The service refused the API key (401).',
        },
      ]);
      return [];
    }, 1);
    await user.type(prompt(), 'a lighthouse{Enter}');
    await screen.findByRole('region', { name: 'Request not sent' });
    request['tasks:submit'].fail(
      { code: 'failed', message: 'The history could not be written.' },
      1,
    );
    await user.type(prompt(), '{Enter}');
    await within(form()).findByText('The history could not be written.');

    await choose(user, 'fal');
    expect(screen.queryByRole('region', { name: 'Request not sent' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Demo service' })).toBeNull();
    expect(within(form()).queryByText('The history could not be written.')).toBeNull();
    // Back on today's contract, what its service said of its key holds again; the error does not.
    await choose(user, 'pictor');
    await screen.findByRole('region', { name: 'Request not sent' });
    expect(within(form()).queryByText('The history could not be written.')).toBeNull();
  });

  // Fault: a refusal of the sent task injected (the contract's interceptor) after the form's
  // service changed.
  it('a refusal arriving after the change stays with the service it is about', async () => {
    const { user, main } = await startWiredApp({ prepare: connectFal });
    await user.type(prompt(), 'a harbour at night{Enter}');
    // The sent task, once the demo finished it: a later "processing" update of the real task would
    // dismiss the banner (as any sent task does), so the injected refusal comes after the last one.
    const sent = await waitFor(() => {
      const record = selectTaskItems(useAppStore.getState())[0]!.record;
      expect(record.status).toBe('completed');
      return record;
    });
    // The next prompt started on fal.ai: the refused one does not come back over it.
    await choose(user, 'fal');
    await user.type(prompt(), 'a heron');
    main.intercept.event['tasks:updated'].inject([
      {
        change: 'refused',
        localId: sent.localId,
        request: sent.request,
        kind: 'auth',
        message: 'The service refused the API key (401).',
      },
    ]);
    await waitFor(() => expect(useAppStore.getState().composeRefusal).not.toBeNull());
    expect(serviceList()).toHaveProperty('value', 'fal');
    expect(screen.queryByRole('region', { name: 'Request not sent' })).toBeNull();
    await choose(user, 'pictor');
    await screen.findByRole('region', { name: 'Request not sent' });
  });
});
