/**
 * "Vary" is offered by one rule (lib/can-vary.ts) wherever it is offered: Task details and the
 * gallery's image viewer show it for the same tasks, whether or not the service reported the seed
 * it used (that decides "Use this seed" alone), and the viewer shows it among its image actions.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { giveSize } from '../layout-sizes';
import { startWiredApp } from '../render-wired-app';

/** The demo's task as fal's FLUX dev (a model taking a seed) would have it, `seed` reported or not. */
function asFal(record: TaskRecord, seed: number | undefined): TaskRecord {
  const { seed: _reported, ...rest } = record;
  return {
    ...rest,
    provider: 'fal',
    request: { ...record.request, model: 'fal-ai/flux/dev' },
    ...(seed === undefined ? {} : { seed }),
  };
}

/** The demo's own task (its model takes no seed), `seed` reported or not. */
function asDemo(record: TaskRecord, seed: number | undefined): TaskRecord {
  const { seed: _reported, ...rest } = record;
  return { ...rest, ...(seed === undefined ? {} : { seed }) };
}

async function openBoth(edit: (record: TaskRecord) => TaskRecord) {
  const started = await startWiredApp({
    prepare: async (wired) => {
      const [task] = await wired.generate(['A heron in fog']);
      // Through the engine, whose live copy of the task a later write of its own (a thumbnail, an
      // image saved) would otherwise put back over an edit made to the history alone.
      await wired.runtime.core.engine.whenSettled([task!.localId]);
      wired.runtime.core.engine.editMany([task!.localId], edit);
    },
  });
  const { user } = started;
  giveSize('.gallery-grid', { width: 900, height: 600 });
  await user.click(screen.getByRole('button', { name: 'Gallery' }));
  const grid = await screen.findByRole('grid', { name: 'Images' });
  await user.click(await within(grid).findByAltText('A heron in fog'));
  const viewer = await screen.findByRole('dialog', { name: 'Image viewer' });
  const actions = within(viewer).getByRole('group', { name: 'Image actions' });
  // The seed row is read apart (the task's record): waited for before anything is judged absent.
  await within(actions).findByRole('button', { name: 'Rerun' });
  const inViewer = {
    actions: within(actions).queryAllByRole('button', { name: 'Vary' }).length,
    anywhere: within(viewer).queryAllByRole('button', { name: 'Vary' }).length,
  };
  return { ...started, viewer, actions, inViewer };
}

async function detailsOffer(user: Awaited<ReturnType<typeof openBoth>>['user']): Promise<number> {
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Image viewer' })).toBeNull());
  await user.click(screen.getByRole('button', { name: 'Tasks' }));
  const [row] = await screen.findAllByRole('article');
  await user.click(within(row!).getByRole('button', { name: 'Details' }));
  const details = await screen.findByRole('dialog', { name: 'Task details' });
  return within(details).queryAllByRole('button', { name: 'Vary' }).length;
}

describe('"Vary", one rule in Task details and the image viewer', () => {
  const cases = [
    { name: 'a model taking a seed, the seed reported', edit: asFal, seed: 42, offered: 1 },
    { name: 'a model taking a seed, no seed reported', edit: asFal, seed: undefined, offered: 1 },
    { name: 'a model taking no seed, a seed reported', edit: asDemo, seed: 42, offered: 0 },
    { name: 'a model taking no seed, no seed reported', edit: asDemo, seed: undefined, offered: 0 },
  ];
  it.each(cases)('$name: offered in both or in neither', async ({ edit, seed, offered }) => {
    const { user, inViewer } = await openBoth((record) => edit(record, seed));
    // In the viewer, among its actions and only there (not beside the seed).
    expect(inViewer).toEqual({ actions: offered, anywhere: offered });
    expect(await detailsOffer(user)).toBe(offered);
  });

  it('the viewer’s Vary has main send the image’s task with a new seed, none reported', async () => {
    const { user, actions, main } = await openBoth((record) => asFal(record, undefined));
    await user.click(within(actions).getByRole('button', { name: 'Vary' }));
    await waitFor(() => expect(main.callsTo('tasks:resend')).toHaveLength(1));
    const [shown] = main.runtime.core.history.list({}).items;
    expect(main.callsTo('tasks:resend')).toEqual([
      { localIds: [shown?.localId], as: 'each', newSeed: true },
    ]);
  });
});
