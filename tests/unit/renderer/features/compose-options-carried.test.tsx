/**
 * The form's model options and seed travel with every way the form sends, over the app's real
 * wiring to a demo service on loopback: a template run sends each prompt with the options and the
 * seed a plain submit would send; a locked seed stays for the next run, an unlocked one is for
 * that run only (the next draws anew).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { paramsKey } from '../../../../renderer/store/compose-params';
import type { DemoService } from '../../../../electron/demo-service/types';
import { connectService } from '../dialect-services';
import { startWiredApp } from '../render-wired-app';

const MODEL = 'fal-ai/flux/dev';
const form = () => screen.getByRole('form', { name: 'New task' });

/** The wired app with fal's demo and a template of two prompts chosen in the form. */
async function withFalTemplate(seedLocked: boolean) {
  let service: DemoService | undefined;
  let id = '';
  const app = await startWiredApp({
    prepare: async (main) => {
      service = await connectService(main, 'fal');
      id = (await main.runtime.core.templates.save({ name: 'Foxes', body: 'a {red|blue} fox' })).id;
    },
  });
  const select = within(form()).getByRole('combobox', { name: 'Template' });
  await waitFor(() => expect(within(select).getByRole('option', { name: 'Foxes' })).toBeTruthy());
  await app.user.selectOptions(select, id);
  act(() =>
    useAppStore.setState((state) => ({
      composeDraft: {
        ...state.composeDraft,
        provider: 'fal',
        model: MODEL,
        params: { [paramsKey('fal', MODEL)]: { num_inference_steps: '12', output_format: 'png' } },
        seed: '4242',
        seedLocked,
      },
    })),
  );
  return { ...app, service: service! };
}

describe('the form’s options on a template run', () => {
  it('sends every prompt with the options and the locked seed, which stays', async () => {
    const { service } = await withFalTemplate(true);
    await act(async () => void (await useAppStore.getState().composeTemplateRun()));
    await waitFor(() => expect(service.log.submits).toHaveLength(2));
    for (const submit of service.log.submits)
      expect(submit.body).toMatchObject({
        num_inference_steps: 12,
        output_format: 'png',
        seed: 4242,
      });
    expect(useAppStore.getState().composeDraft.seed).toBe('4242');
  });

  it('an unlocked seed is sent with that run only: the next run draws anew', async () => {
    const { service } = await withFalTemplate(false);
    await act(async () => void (await useAppStore.getState().composeTemplateRun()));
    await waitFor(() => expect(service.log.submits).toHaveLength(2));
    expect(service.log.submits[0]?.body).toMatchObject({ seed: 4242, num_inference_steps: 12 });
    expect(useAppStore.getState().composeDraft.seed).toBe('');
  });
});
