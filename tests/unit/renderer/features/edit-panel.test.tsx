/**
 * The edit panel over the real main (its input store, plans and runs, fal.ai and Replicate as
 * demo services speaking their dialects on loopback): an operation or model that cannot be used
 * is disabled and says which model would; each target's route from main's plan, and the route
 * chosen goes into the next plan; public links are asked about once per service before anything
 * is sent; "Never upload inputs" in Settings; the smaller copy offered for an image over a model's
 * maximum; edit:run gets the inputs by digest only; main's refusals shown as sentences.
 */
import { randomBytes } from 'node:crypto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { InputImage } from '../../../../shared/domain/image-inputs';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { InterceptedApi } from '../../../support/intercepted-api';
import { makeImage, makeTask } from '../../../support/task-records';
import { applyLocale, formatDateTime } from '../../../../renderer/i18n';
import { connectService } from '../dialect-services';
import { inputOf, putLibraryTask } from '../library-images';
import { startWiredApp } from '../render-wired-app';

/** A PNG of `width` × `height`; `noise` makes it large in bytes (it does not compress). */
async function png(width: number, height: number, noise = false): Promise<Buffer> {
  const image = noise
    ? sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    : sharp({ create: { width, height, channels: 3, background: '#6688aa' } });
  return image.png({ compressionLevel: 1 }).toBuffer();
}

let SOURCE: InputImage;

/** The library image the panel edits (task-1's image 1, a 1024 × 768 PNG). */
async function libraryImage(main: InterceptedApi, bytes?: Buffer): Promise<void> {
  const source = bytes ?? (await png(1024, 768));
  putLibraryTask(main, 'task-1', [source], { taskId: 'svc-task-1', prompt: 'a harbour' });
  const { width = 0, height = 0 } = await sharp(source).metadata();
  SOURCE = inputOf(source, width, height);
}

/** fal.ai set up (its dialect on loopback, a checked key), today's contract on its demo. */
async function prepare(main: InterceptedApi): Promise<void> {
  await connectService(main, 'fal');
  await libraryImage(main);
}

async function openPanel(main: InterceptedApi, prompt = 'make the sky pink') {
  await act(() =>
    useAppStore.getState().editOpenFromLibrary({ localId: 'task-1', index: 0 }, prompt, {
      operation: 'edit',
    }),
  );
  const dialog = await screen.findByRole('dialog', { name: 'Edit an image' });
  expect(main.callsTo('inputs:fromLibrary').length).toBeGreaterThan(0);
  return dialog;
}

const callsTo = (main: InterceptedApi, channel: 'edit:plan' | 'edit:run' | 'inputs:consent') =>
  main.callsTo(channel) as unknown as Array<Record<string, never>>;

const FAL = 'fal.ai · fal-ai/flux-pro/kontext';
const UPLOADED = 'Uploaded; a public link anyone with it can open';

/**
 * The panel with today's demo and fal.ai chosen, once main's plan of them is shown; `upload`: the
 * route asked is Upload (fal takes this image inside the request unless asked), so fal's input
 * goes to its storage as a public link and the demo, which takes inputs inside the request only,
 * is left out.
 */
async function chooseTwo(main: InterceptedApi, upload = true) {
  const dialog = await openPanel(main);
  const user = userEvent.setup();
  await user.click(
    within(dialog).getByRole('checkbox', { name: 'Image task service (demo) · demo-edit' }),
  );
  await user.click(within(dialog).getByRole('checkbox', { name: FAL }));
  await waitFor(() =>
    expect(within(dialog).getByTestId('edit-route-2').textContent).toContain('Inside the request'),
  );
  if (upload) {
    await user.click(within(dialog).getByRole('radio', { name: 'Upload' }));
    await waitFor(() =>
      expect(within(dialog).getByTestId('edit-route-2').textContent).toContain(UPLOADED),
    );
  }
  return { dialog, user };
}

describe('the edit panel', () => {
  it('disables what cannot be used and says which model would', async () => {
    // Only today's contract (its demo) is set up: no service's key.
    const { main } = await startWiredApp({ prepare: libraryImage });
    const dialog = await openPanel(main);
    const expand = within(dialog).getByRole('radio', { name: 'Expand the canvas' });
    expect((expand as HTMLInputElement).disabled).toBe(true);
    expect(
      document.getElementById(expand.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe('flux-pro-1.0-expand on Black Forest Labs can expand an image');
    const fal = within(dialog).getByRole('checkbox', {
      name: 'fal.ai (no key) · fal-ai/flux-pro/kontext',
    });
    expect((fal as HTMLInputElement).disabled).toBe(true);
    expect(document.getElementById(fal.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Set up fal.ai in Settings to use it.',
    );
    const demo = within(dialog).getByRole('checkbox', {
      name: 'Image task service (demo) · demo-edit',
    });
    expect((demo as HTMLInputElement).disabled).toBe(false);
  });

  it('says beside a disabled Send what it waits for, and the link moves the focus there', async () => {
    const { main } = await startWiredApp({ prepare });
    const dialog = await openPanel(main, '');
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
    const reference = await png(512, 512);
    const { main } = await startWiredApp({
      prepare: async (wired) => {
        await prepare(wired);
        putLibraryTask(wired, 'batch-1', [await png(256, 256), reference], {
          taskId: 'svc-batch-1',
          prompt: 'a red boat',
        });
      },
    });
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
    act(() => {
      useAppStore.getState().recordsPut([{ record, live: null }]);
      useAppStore.setState({ galleryRefs: [0, 1].map((index) => ({ localId: 'batch-1', index })) });
    });
    const dialog = await openPanel(main);
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
      expect(main.callsTo('inputs:fromLibrary').at(-1)).toEqual({ localId: 'batch-1', index: 1 }),
    );
    expect(await within(dialog).findByText('Reference 1')).toBeTruthy();
  });

  it('shows each target’s route and plans again with the route chosen', async () => {
    const { main } = await startWiredApp({ prepare });
    const { dialog, user } = await chooseTwo(main, false);
    expect(within(dialog).getByTestId('edit-route-1').textContent).toContain('Inside the request');
    expect(within(dialog).getByTestId('edit-route-2').textContent).toContain('Inside the request');
    await user.click(within(dialog).getByRole('radio', { name: 'Upload' }));
    await waitFor(() =>
      expect(callsTo(main, 'edit:plan').at(-1)?.['inputs']).toMatchObject({ route: 'upload' }),
    );
    await waitFor(() =>
      expect(within(dialog).getByTestId('edit-route-2').textContent).toContain(UPLOADED),
    );
    await user.click(within(dialog).getByRole('radio', { name: 'Inside the request only' }));
    await waitFor(() =>
      expect(callsTo(main, 'edit:plan').at(-1)?.['inputs']).toMatchObject({ route: 'inline' }),
    );
  });

  it('asks once per service before its uploads become public links, then sends digests only', async () => {
    const { main } = await startWiredApp({ prepare });
    const { dialog, user } = await chooseTwo(main);
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Public link' });
    expect(ask.textContent).toContain('This image will be reachable by anyone with its link.');
    expect(callsTo(main, 'edit:run')).toHaveLength(0);
    await user.click(within(ask).getByRole('button', { name: 'Upload it' }));
    await waitFor(() => expect(callsTo(main, 'edit:run')).toHaveLength(1));
    expect(callsTo(main, 'inputs:consent')).toEqual([{ provider: 'fal' }]);
    const sent = callsTo(main, 'edit:run')[0]!;
    expect(sent).toEqual({
      prompt: 'make the sky pink',
      inputs: {
        operation: 'edit',
        source: SOURCE,
        parent: { localId: 'task-1', index: 0 },
        route: 'upload',
      },
      targets: [
        { provider: 'pictor', model: 'demo-edit' },
        { provider: 'fal', model: 'fal-ai/flux-pro/kontext' },
      ],
    });
    expect(JSON.stringify(sent)).not.toMatch(/url|path|base64|pictor-gallery/i);
    // The second edit on the same service sends without asking again.
    await screen.findByRole('dialog', { name: 'Compare' });
    const again = await chooseTwo(main);
    await again.user.click(within(again.dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(callsTo(main, 'edit:run')).toHaveLength(2));
    expect(screen.queryByRole('alertdialog', { name: 'Public link' })).toBeNull();
    expect(callsTo(main, 'inputs:consent')).toHaveLength(1);
  });

  it('offers a smaller copy of an image over the chosen model’s maximum', async () => {
    const { main, user } = await startWiredApp({
      prepare: async (wired) => {
        await connectService(wired, 'fal');
        await libraryImage(wired, await png(6000, 4000));
      },
    });
    const dialog = await openPanel(main);
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'Image task service (demo) · demo-edit' }),
    );
    const offer = within(dialog).getByRole('group', { name: 'Make a smaller copy' });
    expect(offer.textContent).toContain('This image is 6000×4000 pixels');
    expect(offer.textContent).toContain('demo-edit takes at most 4,096 pixels per side');
    expect(
      (within(dialog).getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    await user.click(within(offer).getByRole('button', { name: 'Make a smaller copy' }));
    await waitFor(() =>
      expect(within(dialog).queryByRole('group', { name: 'Make a smaller copy' })).toBeNull(),
    );
    expect(main.callsTo('inputs:downscale')[0]).toMatchObject({ maxSide: 4096 });
    expect(within(dialog).getByText(/4096×273\d pixels/)).toBeTruthy();
  });

  it('names each target of its plan as its checkbox, in the shown language, keeping the draft', async () => {
    const { main } = await startWiredApp({ prepare });
    await chooseTwo(main);
    // The panel as drawn now (the window is drawn again in another language).
    const dialog = () => screen.getByRole('dialog');
    const checked = () =>
      within(dialog())
        .getAllByRole('checkbox')
        .filter((box) => (box as HTMLInputElement).checked)
        .map((box) => box.closest('label')?.textContent ?? '');
    const lines = () =>
      within(dialog())
        .getAllByRole('listitem')
        .map((item) => item.querySelector('strong')?.textContent ?? '');
    // The demo takes inputs inside the request only: main leaves it out.
    expect(checked()).toEqual(['Image task service (demo) · demo-edit', FAL]);
    expect(lines()).toEqual([
      `Target 2: ${FAL}`,
      'Left out: Image task service (demo) · demo-edit',
    ]);
    try {
      await act(() => applyLocale('de'));
      // The panel is drawn again in German with the draft as it was: both targets, Upload.
      const upload = within(dialog()).getByRole('radio', { name: 'Hochladen' });
      expect((upload as HTMLInputElement).checked).toBe(true);
      await waitFor(() =>
        expect(lines()).toEqual([
          `Ziel 2: ${FAL}`,
          'Ausgelassen: Bildaufgaben-Dienst (Demo) · demo-edit',
        ]),
      );
      expect(checked()).toEqual(['Bildaufgaben-Dienst (Demo) · demo-edit', FAL]);
    } finally {
      await applyLocale('en');
    }
  });

  it('shows main’s refusals as sentences', async () => {
    // Uploads turned off, and an image over Replicate's inline limit (1 MB): main leaves it out.
    const { main } = await startWiredApp({
      prepare: async (wired) => {
        await connectService(wired, 'replicate');
        await libraryImage(wired, await png(800, 800, true));
        await wired.runtime.updateSettings({ neverUploadInputs: true });
      },
    });
    const dialog = await openPanel(main);
    const user = userEvent.setup();
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'Image task service (demo) · demo-edit' }),
    );
    const replicate = 'Replicate · black-forest-labs/flux-kontext-pro';
    await user.click(within(dialog).getByRole('checkbox', { name: replicate }));
    const leftOut = await within(dialog).findByText(`Left out: ${replicate}`, { exact: false });
    expect(leftOut.parentElement?.textContent).toContain(
      'uploads are turned off (“Never upload inputs”)',
    );
    // Fault: the run fails in main (the interceptor answers it with main's refusal).
    main.intercept.request['edit:run'].fail(
      { code: 'failed', message: 'The service did not answer. Nothing was sent.' },
      1,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The service did not answer. Nothing was sent.',
    );
  });

  it('“Never upload inputs” is a setting, and the panel then offers no upload', async () => {
    const { main, user } = await startWiredApp({ prepare });
    await act(() => useAppStore.getState().setView('settings'));
    await user.click(await screen.findByRole('checkbox', { name: 'Never upload inputs' }));
    await waitFor(() =>
      expect(main.callsTo('settings:update')).toContainEqual({ neverUploadInputs: true }),
    );
    await waitFor(() => expect(useAppStore.getState().settings?.neverUploadInputs).toBe(true));
    const dialog = await openPanel(main);
    expect(
      (within(dialog).getByRole('radio', { name: 'Upload' }) as HTMLInputElement).disabled,
    ).toBe(true);
    expect(within(dialog).getByText(/Settings say never upload inputs/)).toBeTruthy();
  });
});
