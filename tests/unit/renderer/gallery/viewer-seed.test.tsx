/**
 * The gallery's image viewer shows the seed the image's service used, read from its task's
 * record, with "Use this seed" (the viewer closes onto the form, which takes the task's request
 * with that seed, locked) as a task's details do; an image whose service said no seed shows none.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { useAppStore } from '../../../../renderer/store/app-store';
import { giveSize } from '../layout-sizes';
import { startWiredApp } from '../render-wired-app';

/** The demo's task made as though fal's FLUX dev (a model taking a seed) had said `seed`, or none. */
function asFal(record: TaskRecord, seed: number | undefined): TaskRecord {
  const { seed: _reported, ...rest } = record;
  return {
    ...rest,
    provider: 'fal',
    request: { ...record.request, model: 'fal-ai/flux/dev' },
    ...(seed === undefined ? {} : { seed }),
  };
}

async function openViewer(seed: number | undefined) {
  const started = await startWiredApp({
    prepare: async (wired) => {
      const [task] = await wired.generate(['A heron in fog']);
      // Through the engine, once done with the task: its live copy would otherwise be written back
      // over an edit made to the history alone (vary-offered.test.tsx failed so on a fresh clone).
      await wired.runtime.core.engine.whenSettled([task!.localId]);
      wired.runtime.core.engine.editMany([task!.localId], (record) => asFal(record, seed));
    },
  });
  giveSize('.gallery-grid', { width: 900, height: 600 });
  await started.user.click(screen.getByRole('button', { name: 'Gallery' }));
  const grid = await screen.findByRole('grid', { name: 'Images' });
  await started.user.click(await within(grid).findByAltText('A heron in fog'));
  const dialog = await screen.findByRole('dialog', { name: 'Image viewer' });
  return { ...started, dialog };
}

describe('the image viewer’s seed', () => {
  it('shows the seed its task’s service used; "Use this seed" sets the form’s seed, locked', async () => {
    const { user, dialog } = await openViewer(987_654);
    expect(await within(dialog).findByText('987654')).toBeTruthy();
    expect(within(dialog).getByText('Seed (as the service reported it)')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Use this seed' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Image viewer' })).toBeNull());
    expect(useAppStore.getState().composeDraft).toMatchObject({
      provider: 'fal',
      model: 'fal-ai/flux/dev',
      prompt: 'A heron in fog',
      seed: '987654',
      seedLocked: true,
    });
    const form = screen.getByRole('form', { name: 'New task' });
    expect(await within(form).findByRole('textbox', { name: 'Seed' })).toHaveProperty(
      'value',
      '987654',
    );
    expect(within(form).getByRole('checkbox', { name: 'Keep this seed' })).toHaveProperty(
      'checked',
      true,
    );
  });

  it('shows no seed for an image whose service said none', async () => {
    const { dialog } = await openViewer(undefined);
    await within(dialog).findByRole('button', { name: 'Rerun' });
    expect(within(dialog).queryByRole('button', { name: 'Use this seed' })).toBeNull();
  });
});
