/**
 * The compare dialog with the form's model options, over the app's real wiring and demo services
 * on loopback: before anything is sent it says, per target, which options that target's model
 * will not take (a catalogue sentence, shown in the window's language); Compare then sends each
 * target the options it takes and the kept seed.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { paramsKey } from '../../../../renderer/store/compose-params';
import type { DemoService } from '../../../../electron/demo-service/types';
import { connectService } from '../dialect-services';
import { startWiredApp } from '../render-wired-app';

const MODEL = 'fal-ai/flux/dev';

describe('the compare dialog and the form’s model options', () => {
  it('names before sending what a target will not take, and sends the rest', async () => {
    let fal: DemoService | undefined;
    let bfl: DemoService | undefined;
    const { user } = await startWiredApp({
      prepare: async (main) => {
        fal = await connectService(main, 'fal');
        bfl = await connectService(main, 'bfl');
      },
    });
    act(() => {
      useAppStore.setState((state) => ({
        composeDraft: {
          ...state.composeDraft,
          prompt: 'a heron',
          provider: 'fal',
          model: MODEL,
          params: {
            [paramsKey('fal', MODEL)]: { num_inference_steps: '30', guidance_scale: '12' },
          },
          seed: '77',
          seedLocked: true,
        },
      }));
      useAppStore.getState().compareShowDialog(true);
    });
    const dialog = await screen.findByRole('dialog');
    const service = within(dialog).getAllByRole('combobox', { name: /Service/ })[1]!;
    await user.selectOptions(service, 'bfl');
    await waitFor(() =>
      expect(dialog.textContent).toContain(
        'Adapted: Black Forest Labs · flux-pro-1.1 This model has no option “num_inference_steps”: it is not sent there.',
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Compare' }));
    await waitFor(() => expect(bfl!.log.submits).toHaveLength(1));
    await waitFor(() => expect(fal!.log.submits).toHaveLength(1));
    expect(fal!.log.submits[0]?.body).toMatchObject({ num_inference_steps: 30, seed: 77 });
    expect(bfl!.log.submits[0]?.body).toMatchObject({ seed: 77 });
    expect(JSON.stringify(bfl!.log.submits[0]?.body)).not.toMatch(/steps|guidance/);
  });
});
