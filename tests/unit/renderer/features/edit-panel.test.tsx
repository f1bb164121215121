/**
 * The edit panel over the fake API: an operation or model that cannot be used is disabled and
 * says which model would; each target's route from main's plan, and the route chosen goes into
 * the next plan; public links are asked about once per service before anything is sent; "Never
 * upload inputs" in Settings; the smaller copy offered for an image over a model's maximum;
 * edit:run gets the inputs by digest only; main's refusals shown as sentences.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { KeyStatus } from '../../../../shared/domain/key-status';
import { sentence } from '../../../../shared/i18n/sentence';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { FakePictorApi } from '../../../fakes/fake-pictor-api';
import { inputImage } from '../../../fakes/fake-inputs';
import { startApp } from '../render-app';
import { makeImage, makeTask } from '../../../support/task-records';
import { formatDateTime } from '../../../../renderer/i18n';

const CHECKED: KeyStatus = {
  state: 'ready',
  fingerprint: 'abcdef123456',
  backend: 'keychain',
  weak: false,
  message: null,
  baseUrl: null,
  check: { outcome: 'accepted', at: Date.UTC(2026, 0, 15) },
};

const SOURCE = inputImage(7, 1024, 768, 300_000);

/** fal.ai set up (public links), today's contract on its demo. */
function prepare(fake: FakePictorApi): void {
  fake.serviceKeys = { fal: CHECKED };
  fake.inputs.library.set('task-1#0', SOURCE);
  fake.inputs.routes.set('fal', { route: 'upload', publicLinks: true });
}

async function openPanel(fake: FakePictorApi, prompt = 'make the sky pink') {
  await act(() =>
    useAppStore.getState().editOpenFromLibrary({ localId: 'task-1', index: 0 }, prompt, {
      operation: 'edit',
    }),
  );
  const dialog = await screen.findByRole('dialog', { name: 'Edit an image' });
  expect(fake.calls.some((c) => c.channel === 'inputs:fromLibrary')).toBe(true);
  return dialog;
}

const callsTo = (fake: FakePictorApi, channel: string) =>
  fake.calls.filter((c) => c.channel === channel).map((c) => c.input as Record<string, never>);

/** The panel with today's demo and fal.ai chosen, once main's plan of them is shown. */
async function chooseTwo(
  fake: FakePictorApi,
  shown = 'Uploaded; a public link anyone with it can open',
) {
  const dialog = await openPanel(fake);
  const user = userEvent.setup();
  await user.click(
    within(dialog).getByRole('checkbox', { name: 'Image task service · demo-edit' }),
  );
  await user.click(
    within(dialog).getByRole('checkbox', { name: 'fal.ai · fal-ai/flux-pro/kontext' }),
  );
  await within(dialog).findByText(shown);
  return { dialog, user };
}

// Fault: none main could not make; electron/ipc/input-handlers.ts is a placeholder that refuses
// every inputs/edit/stack channel until it is built, so these flows run on the fake's.
describe('the edit panel', () => {
  it('disables what cannot be used and says which model would', async () => {
    // Only today's contract (its demo) is set up: no service's key.
    const { fake } = await startApp({
      prepare: (f) => void f.inputs.library.set('task-1#0', SOURCE),
    });
    const dialog = await openPanel(fake);
    const expand = within(dialog).getByRole('radio', { name: 'Expand the canvas' });
    expect((expand as HTMLInputElement).disabled).toBe(true);
    expect(
      document.getElementById(expand.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe('flux-pro-1.0-expand on Black Forest Labs can expand an image');
    const fal = within(dialog).getByRole('checkbox', { name: 'fal.ai · fal-ai/flux-pro/kontext' });
    expect((fal as HTMLInputElement).disabled).toBe(true);
    expect(document.getElementById(fal.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Set up fal.ai in Settings to use it.',
    );
    const demo = within(dialog).getByRole('checkbox', { name: 'Image task service · demo-edit' });
    expect((demo as HTMLInputElement).disabled).toBe(false);
  });

  it('says beside a disabled Send what it waits for, and the link moves the focus there', async () => {
    const { fake } = await startApp({ prepare });
    const dialog = await openPanel(fake, '');
    const user = userEvent.setup();
    const send = within(dialog).getByRole('button', { name: 'Send' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    // No prompt yet: said first, and its link goes to the prompt.
    await user.click(within(dialog).getByRole('button', { name: 'Say what to change first.' }));
    expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: 'Prompt' }));
    await user.type(document.activeElement!, 'make the sky pink');
    // Then the model to tick, however far down the panel it is.
    await user.click(
      within(dialog).getByRole('button', { name: 'Choose a model to send to first.' }),
    );
    const first = within(dialog)
      .getAllByRole('checkbox')
      .find((box) => !box.hasAttribute('disabled'));
    expect(document.activeElement).toBe(first);
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'fal.ai · fal-ai/flux-pro/kontext' }),
    );
    expect(within(dialog).queryByRole('button', { name: /first\.$/ })).toBeNull();
  });

  it('offers library references as the gallery shows them: thumbnail, date and number', async () => {
    const { fake } = await startApp({ prepare });
    // One batch's two images: the same prompt, told apart by their number.
    const createdAt = Date.UTC(2026, 2, 14, 9, 30);
    const record = makeTask({
      localId: 'batch-1',
      taskId: 'svc-1',
      status: 'completed',
      prompt: 'a red boat',
      createdAt,
      images: [0, 1].map((index) =>
        makeImage(index, { thumbnail: `batch/${String(index)}.thumb.webp` }),
      ),
    });
    fake.inputs.library.set('batch-1#1', inputImage(9, 512, 512, 90_000));
    act(() => {
      useAppStore.getState().recordsPut([{ record, live: null }]);
      useAppStore.setState({ galleryRefs: [0, 1].map((index) => ({ localId: 'batch-1', index })) });
    });
    const dialog = await openPanel(fake);
    const user = userEvent.setup();
    const choices = within(dialog).getByRole('group', { name: 'Library image' });
    const radios = within(choices).getAllByRole('radio');
    const date = formatDateTime(createdAt);
    expect(radios.map((radio) => radio.getAttribute('aria-label'))).toEqual([
      `a red boat, ${date}, image 1`,
      `a red boat, ${date}, image 2`,
    ]);
    expect(choices.querySelectorAll('img')).toHaveLength(2);
    expect(choices.textContent).toContain('#2');
    await user.click(radios[1]!);
    await user.click(within(dialog).getByRole('button', { name: 'Add from the library' }));
    await waitFor(() =>
      expect(callsTo(fake, 'inputs:fromLibrary').at(-1)).toEqual({ localId: 'batch-1', index: 1 }),
    );
    expect(await within(dialog).findByText('Reference 1')).toBeTruthy();
  });

  it('shows each target’s route and plans again with the route chosen', async () => {
    const { fake } = await startApp({ prepare });
    const { dialog, user } = await chooseTwo(fake);
    expect(within(dialog).getByTestId('edit-route-1').textContent).toContain('Inside the request');
    expect(within(dialog).getByTestId('edit-route-2').textContent).toContain(
      'Uploaded; a public link anyone with it can open',
    );
    await user.click(within(dialog).getByRole('radio', { name: 'Inside the request only' }));
    await waitFor(() =>
      expect(callsTo(fake, 'edit:plan').at(-1)?.['inputs']).toMatchObject({ route: 'inline' }),
    );
  });

  it('asks once per service before its uploads become public links, then sends digests only', async () => {
    const { fake } = await startApp({ prepare });
    const { dialog, user } = await chooseTwo(fake);
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Public link' });
    expect(ask.textContent).toContain('This image will be reachable by anyone with its link.');
    expect(callsTo(fake, 'edit:run')).toHaveLength(0);
    await user.click(within(ask).getByRole('button', { name: 'Upload it' }));
    await waitFor(() => expect(callsTo(fake, 'edit:run')).toHaveLength(1));
    expect(callsTo(fake, 'inputs:consent')).toEqual([{ provider: 'fal' }]);
    const sent = callsTo(fake, 'edit:run')[0]!;
    expect(sent).toEqual({
      prompt: 'make the sky pink',
      inputs: {
        operation: 'edit',
        source: SOURCE,
        parent: { localId: 'task-1', index: 0 },
        route: 'auto',
      },
      targets: [
        { provider: 'pictor', model: 'demo-edit' },
        { provider: 'fal', model: 'fal-ai/flux-pro/kontext' },
      ],
    });
    expect(JSON.stringify(sent)).not.toMatch(/url|path|base64|pictor-gallery/i);
    // The second edit on the same service sends without asking again.
    await screen.findByRole('dialog', { name: 'Compare' });
    const again = await chooseTwo(fake);
    await again.user.click(within(again.dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(callsTo(fake, 'edit:run')).toHaveLength(2));
    expect(screen.queryByRole('alertdialog', { name: 'Public link' })).toBeNull();
    expect(callsTo(fake, 'inputs:consent')).toHaveLength(1);
  });

  it('offers a smaller copy of an image over the chosen model’s maximum', async () => {
    const { fake, user } = await startApp({
      prepare: (f) => {
        prepare(f);
        f.inputs.library.set('task-1#0', inputImage(8, 6000, 4000, 3_000_000));
      },
    });
    const dialog = await openPanel(fake);
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'Image task service · demo-edit' }),
    );
    const offer = within(dialog).getByRole('group', { name: 'Make a smaller copy' });
    expect(offer.textContent).toContain('This image is 6,000 × 4,000 pixels');
    expect(offer.textContent).toContain('demo-edit takes at most 4,096 pixels per side');
    expect(
      (within(dialog).getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    await user.click(within(offer).getByRole('button', { name: 'Make a smaller copy' }));
    await waitFor(() =>
      expect(within(dialog).queryByRole('group', { name: 'Make a smaller copy' })).toBeNull(),
    );
    expect(callsTo(fake, 'inputs:downscale')[0]).toMatchObject({ maxSide: 4096 });
    expect(within(dialog).getByText(/4,096 × 2,730 pixels/)).toBeTruthy();
  });

  it('shows main’s refusals as sentences', async () => {
    const { fake } = await startApp({
      prepare: (f) => {
        prepare(f);
        f.inputs.leaveOut.set(2, sentence('error.inputs.uploadRefused'));
      },
    });
    const { dialog, user } = await chooseTwo(fake, 'Left out: fal.ai · fal-ai/flux-pro/kontext');
    expect(within(dialog).getByText(/Left out: fal.ai/).parentElement?.textContent).toContain(
      'uploads are turned off (“Never upload inputs”)',
    );
    fake.fail('edit:run', { message: 'The service did not answer. Nothing was sent.' });
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The service did not answer. Nothing was sent.',
    );
  });

  it('“Never upload inputs” is a setting, and the panel then offers no upload', async () => {
    const { fake, user } = await startApp({ prepare });
    await act(() => useAppStore.getState().setView('settings'));
    await user.click(await screen.findByRole('checkbox', { name: 'Never upload inputs' }));
    await waitFor(() =>
      expect(callsTo(fake, 'settings:update')).toContainEqual({ neverUploadInputs: true }),
    );
    await waitFor(() => expect(useAppStore.getState().settings?.neverUploadInputs).toBe(true));
    const dialog = await openPanel(fake);
    expect(
      (within(dialog).getByRole('radio', { name: 'Upload' }) as HTMLInputElement).disabled,
    ).toBe(true);
    expect(within(dialog).getByText(/Settings say never upload inputs/)).toBeTruthy();
  });
});
