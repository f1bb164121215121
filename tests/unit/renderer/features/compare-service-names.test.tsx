/**
 * A compare target's Service box names each service as the compose form's Service box does
 * (store/use-service-choices.ts): the built-in demo standing in for today's contract (no address,
 * or no key), a service without a key, or the service itself; the two lists read the same as the
 * settings change. Over the app's real wiring.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { connectService } from '../dialect-services';
import { startWiredApp } from '../render-wired-app';

const form = () => screen.getByRole('form', { name: 'New task' });
const texts = (select: HTMLElement) =>
  [...(select as HTMLSelectElement).options].map((option) => option.textContent);
const chosen = (select: HTMLElement) =>
  (select as HTMLSelectElement).selectedOptions[0]?.textContent;

/** The compose box, and the compare dialog's first target's box (the form's service). */
async function bothBoxes(): Promise<{ compose: HTMLElement; compare: HTMLElement }> {
  const compose = within(form()).getByRole('combobox', { name: 'Service' });
  act(() => useAppStore.getState().compareShowDialog(true));
  const dialog = await screen.findByRole('dialog');
  const [compare] = within(dialog).getAllByRole('combobox', { name: 'Service' });
  return { compose, compare: compare! };
}

describe('a compare target’s Service box', () => {
  it('names the demo standing in, and a service without a key, as the compose form does', async () => {
    await startWiredApp();
    const { compose, compare } = await bothBoxes();
    expect(chosen(compose)).toBe('Image task service (demo)');
    expect(chosen(compare)).toBe('Image task service (demo)');
    expect(texts(compare)).toContain('fal.ai (no key)');
    expect(texts(compare)).toEqual(texts(compose));
  });

  it('follows the settings: an address without a key is still the demo, a key the service', async () => {
    const { main } = await startWiredApp({
      prepare: async (main) => {
        await connectService(main, 'pictor', { key: null });
        await connectService(main, 'fal');
      },
    });
    const { compose, compare } = await bothBoxes();
    expect(chosen(compare)).toMatch(/^127\.0\.0\.1:\d+ \(no key: demo\)$/);
    expect(texts(compare)).toContain('fal.ai');
    expect(texts(compare)).toEqual(texts(compose));
    await act(() => main.runtime.setKey('sk-own-service', false, 'pictor'));
    await waitFor(() => expect(chosen(compare)).toMatch(/^127\.0\.0\.1:\d+$/), { timeout: 10_000 });
    expect(texts(compare)).toEqual(texts(compose));
  });

  it('sends where it says: the demo standing in for a service with an address and no key', async () => {
    await startWiredApp({
      prepare: async (main) => {
        await connectService(main, 'pictor', { key: null });
        await connectService(main, 'fal');
      },
    });
    const answer = await useAppStore.getState().comparePlan({
      prompts: ['a heron'],
      targets: [
        { provider: 'pictor', model: 'm1' },
        { provider: 'fal', model: 'fal-ai/flux/dev' },
      ],
    });
    expect(answer.ok && answer.plan.leftOut).toEqual([]);
    expect(answer.ok && answer.plan.targets.map((target) => target.label)).toEqual([
      expect.stringMatching(/\(demo\) · m1$/),
      'fal.ai · fal-ai/flux/dev',
    ]);
  });
});
