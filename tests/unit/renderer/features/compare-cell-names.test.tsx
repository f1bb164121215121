/**
 * A compare's cells are named as their targets' Service boxes named them (store/use-service-choices.ts,
 * lib/service-label.ts): their tasks keep facts (service, the demo standing in, model, #n), not
 * English words, so a cell follows the shown language and a later rename of the user's service. A
 * compare kept before the facts (its label only) still shows that label; a version before them
 * reads the label of a compare kept now. Over the app's real wiring, the demo on loopback.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compareGroupSchema } from '../../../../shared/domain/compare';
import { taskRecordSchema } from '../../../../shared/domain/task-record';
import { shownNameSchema } from '../../../../shared/text/shown-name';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeTask } from '../../../support/task-records';
import { connectService } from '../dialect-services';
import { startWiredApp } from '../render-wired-app';

afterEach(async () => {
  await applyLocale('en');
});

const cellNames = () =>
  screen.getAllByRole('gridcell').map((cell) => cell.getAttribute('aria-labelledby') ?? '');
const shown = () => cellNames().map((id) => document.getElementById(id)?.textContent ?? '');

/** The compose form's Service box's name for today's contract now. */
function composeBoxName(): string {
  const form = screen.getByRole('form', { name: 'New task' });
  const box = within(form).getByRole('combobox', { name: 'Service' }) as HTMLSelectElement;
  return box.selectedOptions[0]?.textContent ?? '';
}

describe('a compare cell’s name', () => {
  it('reads as its target’s box, in the shown language, by the service’s name now', async () => {
    const { main } = await startWiredApp({
      prepare: (main) => connectService(main, 'pictor', { key: null }).then(() => undefined),
    });
    // The box says why the demo stands in now ("no key"); a cell, what made the task: the demo.
    const box = composeBoxName();
    expect(box).toMatch(/^127\.0\.0\.1:\d+ \(no key: demo\)$/);
    const made = box.replace(' (no key: demo)', ' (demo)');
    const refused = await act(() =>
      useAppStore.getState().compareRun({
        prompts: ['a heron'],
        targets: [
          { provider: 'pictor', model: 'm1' },
          { provider: 'pictor', model: 'm1' },
        ],
      }),
    );
    expect(refused).toBeNull();
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(2));
    expect(shown()).toEqual([`${made} · m1 #1`, `${made} · m1 #2`]);
    // The task keeps facts, and the label in English words for the command line and older versions.
    const group = useAppStore.getState().compareGroup!;
    const kept = main.runtime.core.history
      .taskIds({ compareGroup: group }, 10)
      .map((localId) => main.runtime.core.history.get(localId)?.compare);
    expect(kept).toContainEqual({
      group,
      slot: 2,
      label: 'Image task service (demo) · m1 #2',
      service: 'pictor',
      demo: true,
      model: 'm1',
      nth: 2,
    });
    await act(() => applyLocale('de'));
    await waitFor(() => expect(shown()[0]).toMatch(/^127\.0\.0\.1:\d+ \(Demo\) · m1 #1$/));
    await act(() => main.runtime.updateSettings({ serviceName: 'Atelier' }));
    await act(() => useAppStore.getState().compareOpen(group));
    await waitFor(() =>
      expect(shown()).toEqual(['Atelier (Demo) · m1 #1', 'Atelier (Demo) · m1 #2']),
    );
  });

  it('of a compare kept before the facts is its label as kept', async () => {
    const group = '7d6f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f';
    await startWiredApp({
      prepare: (main) =>
        main.runtime.core.history.putMany(
          [1, 2].map((slot) =>
            makeTask({
              localId: `old-${String(slot)}`,
              status: 'completed',
              compare: { group, slot, label: `Image task service (demo) · m${String(slot)}` },
            }),
          ),
        ),
    });
    await act(() => useAppStore.getState().compareOpen(group));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(2));
    expect(shown()).toEqual(['Image task service (demo) · m1', 'Image task service (demo) · m2']);
  });
});

describe('a compare kept now, read by a version before the facts', () => {
  // The compare field as 91443e9c reads it (shared/domain/compare.ts then): a field it does not
  // know is dropped, the label kept, the task in its group.
  const before = z.object({
    group: compareGroupSchema(),
    slot: z.number().int().min(1).max(6),
    label: shownNameSchema(120),
  });

  it('keeps the group and shows the English label; this version reads the facts', () => {
    const compare = {
      group: '7d6f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f',
      slot: 1,
      label: 'fal.ai · fal-ai/flux/dev #1',
      service: 'fal',
      model: 'fal-ai/flux/dev',
      nth: 1,
    };
    expect(before.parse(compare)).toEqual({
      group: compare.group,
      slot: 1,
      label: compare.label,
    });
    expect(taskRecordSchema().parse({ ...makeTask(), compare }).compare).toEqual(compare);
  });

  it('drops a fact that does not fit, keeping the compare by its label', () => {
    const compare = {
      group: '7d6f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f',
      slot: 1,
      label: 'fal.ai · x',
      service: 'evil',
      demo: 'yes',
      model: '\u202e',
      nth: 9,
    };
    const kept = taskRecordSchema().parse({ ...makeTask(), compare }).compare;
    expect(kept).toEqual({ group: compare.group, slot: 1, label: 'fal.ai · x' });
  });
});
