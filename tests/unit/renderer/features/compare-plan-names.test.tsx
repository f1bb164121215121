/**
 * The compare dialog's plan lines ("Adapted: …", "Left out: …") name a target as its Service box
 * and its cells do (lib/service-label.ts fanOutTargetName): main's plan carries the target's facts
 * (service, the demo standing in, model, #n) beside the English label, as its tasks keep them, so a
 * line follows the shown language and the user's name for their service. Main's answer is read by
 * the page's schema as a record's compare is: a fact that does not fit is dropped and the label
 * names the target. What was adapted is said under that name, in a sentence that names no target
 * ("This model takes no seed"), so no English name of main's stands in a line shown in German; a
 * target left out for want of a key is named as its box names it ("fal.ai (no key)"). A new
 * language draws the window anew, and the dialog keeps the rows typed. Over the app's real wiring,
 * the demo on loopback.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { compareRequests } from '../../../../shared/ipc/compare-contract';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { connectService } from '../dialect-services';
import { startWiredApp } from '../render-wired-app';

afterEach(async () => {
  await applyLocale('en');
});

/** A Service box naming the demo standing in for the user's own service ("…(no key: demo)" too). */
const DEMO_BOX = /^\S+ \((no key: )?demo\)$/;

/** The compare dialog (the only one open), in whichever language. */
const plannedDialog = () => screen.getByRole('dialog');
const items = () => within(plannedDialog()).queryAllByRole('listitem');
const lines = () => items().map((item) => item.querySelector('strong')?.textContent ?? '');
/** Each line whole: its name, then what main said of it. */
const wholeLines = () => items().map((item) => item.textContent ?? '');
/** A target's row, its Service box and its Model field (by place: the dialog may be in German). */
function row(slot: number): { box: HTMLSelectElement; model: HTMLInputElement } {
  const fieldset = within(plannedDialog()).getAllByRole('group')[slot - 1]!;
  return {
    box: within(fieldset).getByRole('combobox') as HTMLSelectElement,
    model: within(fieldset).getByRole('textbox') as HTMLInputElement,
  };
}

/** Both targets the user's own service's m1, the same target twice: #1 and #2. */
async function setTwice(): Promise<string> {
  const user = userEvent.setup();
  for (const slot of [1, 2]) {
    await user.selectOptions(row(slot).box, 'pictor');
    await user.clear(row(slot).model);
    await user.type(row(slot).model, 'm1');
  }
  return row(1).box.selectedOptions[0]?.textContent ?? '';
}

/**
 * The dialog on the form's prompt and seed (typed for fal.ai's FLUX, which takes one), both targets
 * the user's own service's m1, which takes none: each is "Adapted", the seed not sent there.
 */
async function openOnTwice(): Promise<string> {
  act(() =>
    useAppStore.getState().composeSetDraft({
      prompt: 'a heron',
      provider: 'fal',
      model: 'fal-ai/flux/dev',
      seed: '7',
      seedLocked: true,
    }),
  );
  await userEvent.setup().click(screen.getByRole('button', { name: 'Compare…' }));
  return setTwice();
}

describe('the compare dialog’s plan lines', () => {
  it('name an adapted target as its Service box does, in the shown language', async () => {
    await startWiredApp({
      prepare: (main) => connectService(main, 'pictor', { key: null }).then(() => undefined),
    });
    // The box names the service and the demo standing in (and may say why: "no key: demo"); a
    // line, as the cells will, the service and the demo that will make the tasks.
    const box = await openOnTwice();
    expect(box).toMatch(DEMO_BOX);
    const host = box.split(' ')[0]!;
    expect(host).toMatch(/^127\.0\.0\.1:\d+$/);
    await waitFor(() =>
      expect(lines()).toEqual([
        `Adapted: ${host} (demo) · m1 #1`,
        `Adapted: ${host} (demo) · m1 #2`,
      ]),
    );
    expect(wholeLines()[0]).toBe(
      `Adapted: ${host} (demo) · m1 #1 This model takes no seed: it draws its own.`,
    );
    await act(() => applyLocale('de'));
    // The window is drawn again in German, the dialog with the rows as they were typed.
    expect(row(1).box.value).toBe('pictor');
    expect(row(2).model.value).toBe('m1');
    expect(row(1).box.selectedOptions[0]?.textContent).toMatch(/^\S+ \(.*Demo\)$/);
    await waitFor(() =>
      expect(lines()).toEqual([
        `Angepasst: ${host} (Demo) · m1 #1`,
        `Angepasst: ${host} (Demo) · m1 #2`,
      ]),
    );
    // What was adapted, in German under the German name: no English name of main's in it.
    expect(wholeLines()).toEqual([
      `Angepasst: ${host} (Demo) · m1 #1 Dieses Modell nimmt keinen Seed an: Es wählt seinen eigenen.`,
      `Angepasst: ${host} (Demo) · m1 #2 Dieses Modell nimmt keinen Seed an: Es wählt seinen eigenen.`,
    ]);
  });

  it('follow the user’s name for their service, as the box does', async () => {
    const { main } = await startWiredApp({
      prepare: async (main) => {
        await connectService(main, 'pictor', { key: null });
        await main.runtime.updateSettings({ serviceName: 'Atelier' });
      },
    });
    const box = await openOnTwice();
    expect(box).toMatch(/^Atelier \((no key: )?demo\)$/);
    await waitFor(() =>
      expect(lines()).toEqual([
        'Adapted: Atelier (demo) · m1 #1',
        'Adapted: Atelier (demo) · m1 #2',
      ]),
    );
    // Main's English label names the same target otherwise: the line is not it.
    const answer = await useAppStore.getState().comparePlan({
      prompts: ['a heron'],
      targets: [
        { provider: 'pictor', model: 'm1' },
        { provider: 'pictor', model: 'm1' },
      ],
    });
    expect(answer.ok && answer.plan.targets[0]?.label).toBe('Image task service (demo) · m1 #1');
    expect(main.callsTo('compare:plan').length).toBeGreaterThan(1);
  });

  it('name a target left out from its facts, in the shown language', async () => {
    await startWiredApp();
    act(() => useAppStore.getState().composeSetDraft({ prompt: 'a lake', provider: 'pictor' }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Compare…' }));
    // fal.ai has no key here: main leaves it out, the line names it as its Service box does.
    const box = row(2).box.selectedOptions[0]?.textContent;
    expect(box).toBe('fal.ai (no key)');
    await waitFor(() =>
      expect(lines()).toEqual([expect.stringMatching(/^Left out: fal\.ai \(no key\) · /)]),
    );
    await act(() => applyLocale('de'));
    await waitFor(() =>
      expect(lines()).toEqual([
        expect.stringMatching(/^Ausgelassen: fal\.ai \(kein Schlüssel\) · /),
      ]),
    );
  });
});

describe('a plan’s target names as the page reads them', () => {
  const output = () => compareRequests['compare:plan'].output;
  const plan = (target: Record<string, unknown>, leftOut: Record<string, unknown>) => ({
    group: '7d6f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f',
    targets: [{ slot: 1, notes: [], tasks: 1, estimate: { micros: {}, unpriced: 1 }, ...target }],
    leftOut: [{ slot: 2, reason: { key: 'error.compare.noTargetLeft', params: {} }, ...leftOut }],
    warnings: [],
    total: { micros: {}, unpriced: 1 },
  });

  it('keeps the facts, drops one that does not fit as a record does, refuses a bad slot', () => {
    const facts = { label: 'fal.ai · m #2', service: 'fal', model: 'm', nth: 2 };
    const read = output().parse(plan(facts, { label: 'x', service: 'pictor', demo: true }));
    expect(read.targets[0]).toMatchObject(facts);
    expect(read.leftOut[0]).toMatchObject({ label: 'x', service: 'pictor', demo: true });
    const bad = output().parse(
      plan({ label: 'fal.ai · m', service: 'evil', nth: 9 }, { label: 'y', model: '\u202e' }),
    );
    expect(bad.targets[0]?.service).toBeUndefined();
    expect(bad.targets[0]?.nth).toBeUndefined();
    expect(bad.leftOut[0]?.model).toBeUndefined();
    expect(() => output().parse(plan(facts, { label: 'z', slot: 99 }))).toThrow();
    expect(() => output().parse(plan({ ...facts, label: '' }, { label: 'z' }))).toThrow();
  });
});
