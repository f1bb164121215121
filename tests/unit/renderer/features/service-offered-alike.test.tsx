/**
 * One rule for where a new task can go, met alike in the three places that choose it: the compose
 * form's Service box, a compare target's Service box and the edit panel's model checkboxes each
 * name a service by its standing now (store/use-service-key-state.ts serviceStateOf, through
 * useServiceStandings) and offer it alike, per state: a key checked (the service), no key where
 * the built-in demo stands in ("(no key: demo)", offered: main sends it to the demo), no key
 * elsewhere ("(no key)", not offered by the panel: main would leave it out), offline (the
 * service: the banner says it) and unreachable ("(unreachable)", offered: only a call that
 * answers tells it is back). The edit's plan names a target on the demo as a compare's does.
 * Over the app's real main, its settings and keys, and a service speaking fal's dialect on
 * loopback.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../../../../shared/domain/providers';
import { useAppStore } from '../../../../renderer/store/app-store';
import { connectService } from '../dialect-services';
import { smallLibraryImage } from '../library-images';
import { startWiredApp } from '../render-wired-app';

const store = useAppStore.getState;

/** The upscale model each service offers in the panel. */
const MODEL = { pictor: 'demo-edit', fal: 'fal-ai/clarity-upscaler' } as const;
type Offered = keyof typeof MODEL;

const optionOf = (select: HTMLElement, provider: ProviderId) =>
  [...(select as HTMLSelectElement).options].find((option) => option.value === provider)
    ?.textContent;

interface Told {
  readonly compose: string | null | undefined;
  readonly compare: string | null | undefined;
  /** The edit panel's checkbox of the service's upscale model, its name and whether it can be ticked. */
  readonly edit: string | null | undefined;
  readonly offered: boolean;
}

/** How each of `providers` is named and offered by the compose form, compare and the edit panel. */
async function told(): Promise<Record<Offered, Told>> {
  const form = screen.getByRole('form', { name: 'New task' });
  const compose = within(form).getByRole('combobox', { name: 'Service' });
  act(() => store().compareShowDialog(true));
  const dialog = await screen.findByRole('dialog');
  const compare = within(dialog).getAllByRole('combobox', { name: 'Service' })[0]!;
  const boxes = (Object.keys(MODEL) as Offered[]).map((provider) => ({
    provider,
    compose: optionOf(compose, provider),
    compare: optionOf(compare, provider),
  }));
  act(() => store().compareShowDialog(false));
  await act(() =>
    store().editOpenFromLibrary({ localId: 'task-1', index: 0 }, 'a sharper heron', {
      operation: 'upscale',
      factor: 2,
    }),
  );
  const panel = await screen.findByRole('dialog', { name: 'Edit an image' });
  const checkboxes = within(panel).getAllByRole('checkbox') as HTMLInputElement[];
  const entries = boxes.map(({ provider, ...names }) => {
    const box = checkboxes.find((one) =>
      one.closest('label')?.textContent?.endsWith(` · ${MODEL[provider]}`),
    );
    const edit = box?.closest('label')?.textContent;
    return [provider, { ...names, edit, offered: box !== undefined && !box.disabled }];
  });
  return Object.fromEntries(entries) as Record<Offered, Told>;
}

/** `service` told alike: the same name in both boxes, and "name · model" in the panel. */
function alike(all: Record<Offered, Told>, provider: Offered, name: string | RegExp) {
  const one = all[provider];
  expect(one.compose).toMatch(name);
  expect(one.compare).toBe(one.compose);
  expect(one.edit).toBe(`${one.compose ?? ''} · ${MODEL[provider]}`);
}

describe('a service told alike by compose, compare and the edit panel', () => {
  it('with a key checked: the service, offered; the demo standing in for no address: offered', async () => {
    await startWiredApp({
      prepare: async (main) => {
        await connectService(main, 'fal');
        await smallLibraryImage(main);
      },
    });
    const all = await told();
    alike(all, 'fal', /^fal\.ai$/);
    expect(all.fal.offered).toBe(true);
    alike(all, 'pictor', /^Image task service \(demo\)$/);
    expect(all.pictor.offered).toBe(true);
  });

  it('with an address and no key: the demo standing in, offered and its plan names the demo; no key elsewhere: not offered, and main refuses it', async () => {
    let source: Awaited<ReturnType<typeof smallLibraryImage>> | undefined;
    const { main, user } = await startWiredApp({
      prepare: async (main) => {
        await connectService(main, 'pictor', { key: null });
        source = await smallLibraryImage(main);
      },
    });
    const all = await told();
    expect(all.pictor.offered).toBe(true);
    alike(all, 'pictor', /^127\.0\.0\.1:\d+ \(no key: demo\)$/);
    alike(all, 'fal', /^fal\.ai \(no key\)$/);
    expect(all.fal.offered).toBe(false);
    // The plan names the target as the demo it goes to, as a compare's cells do.
    const panel = screen.getByRole('dialog', { name: 'Edit an image' });
    await user.click(within(panel).getByRole('checkbox', { name: all.pictor.edit! }));
    const host = /^(127\.0\.0\.1:\d+)/.exec(all.pictor.compose ?? '')?.[1];
    await waitFor(() =>
      expect(within(panel).getByTestId('edit-route-1').textContent).toBe(
        `Target 1: ${host ?? ''} (demo) · demo-edit Inside the request`,
      ),
    );
    // A page that asks anyway for what it does not offer (a compromised one): main leaves it out.
    const asked = await store().editPlan({
      prompt: 'a sharper heron',
      inputs: { operation: 'upscale', source: source!, factor: 2, route: 'inline' },
      targets: [{ provider: 'fal', model: MODEL.fal }],
    });
    expect(asked.ok && asked.value.targets).toEqual([]);
    expect(asked.ok && asked.value.leftOut.map((out) => out.reason.key)).toEqual([
      'error.submit.noKeyThere',
    ]);
    expect(main.callsTo('edit:run')).toEqual([]);
  });

  it('offline: the service, offered; unreachable: marked, and offered', async () => {
    const { main } = await startWiredApp({
      prepare: async (main) => {
        await connectService(main, 'fal');
        await smallLibraryImage(main);
      },
    });
    act(() => main.send('network:changed', { online: false }));
    await waitFor(() => expect(store().offline).toBe(true));
    const offline = await told();
    alike(offline, 'fal', /^fal\.ai$/);
    expect(offline.fal.offered).toBe(true);
    act(() => store().editClose());
    // Fault: main's reach fact for fal's origin, as a failed call sets it (service-state-seams).
    const origin = new URL(main.runtime.settings.get().serviceBaseUrls.fal ?? '').origin;
    act(() => main.send('network:changed', { online: true }));
    act(() => main.send('network:changed', { unreachable: [origin] }));
    await waitFor(() => expect(store().unreachable).toEqual([origin]));
    const unreachable = await told();
    alike(unreachable, 'fal', /^fal\.ai \(unreachable\)$/);
    expect(unreachable.fal.offered).toBe(true);
  });
});
