/**
 * "Refresh options" in the window, over the real main wiring and fal's dialect on loopback: main
 * fetches the options the service publishes for the chosen model (with the key main holds, never
 * one from the page) through the core's one refresh, keeps them, and the form shows an option
 * Pictor does not ship without a restart. A hostile schema is refused with its sentence and the
 * shipped options stay; a listed model's options are fetched once on its first use, and a
 * failure then is not retried.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DemoService, FaultRule } from '../../../../electron/demo-service/types';
import { useAppStore } from '../../../../renderer/store/app-store';
import { connectService } from '../dialect-services';
import { startWiredApp } from '../render-wired-app';

const MODEL = 'fal-ai/flux/dev';
/** A schema whose `$ref`s go round in a loop: nothing of it can be read. */
const LOOPING = JSON.stringify({
  components: {
    schemas: {
      Input: { properties: { mode: { $ref: '#/components/schemas/A' } } },
      A: { $ref: '#/components/schemas/B' },
      B: { $ref: '#/components/schemas/A' },
    },
  },
});

const schemaRequests = (service: DemoService) =>
  service.log.requests.filter((entry) => entry.route === 'schema');

/** The window over main, fal at a dialect on loopback; `first` answers the first schema asked. */
async function startOnFal(first?: string) {
  let service: DemoService | undefined;
  const app = await startWiredApp({
    prepare: async (main) => {
      service = await connectService(main, 'fal');
      const effect = { type: 'body', body: first };
      if (first !== undefined) service.addFault({ route: 'schema', effect, times: 1 } as FaultRule);
    },
  });
  act(() => useAppStore.getState().composeSetDraft({ provider: 'fal', model: MODEL }));
  return { ...app, service: service! };
}

const options = () => screen.getByRole('group', { name: 'Model options' });

describe('Refresh options', () => {
  // Fault: the first schema fal's dialect answers has a `$ref` loop (a hostile schema).
  it('brings the fetched options into the form after a hostile first answer was refused', async () => {
    const { user, main, service } = await startOnFal(LOOPING);
    // The first use asked once; the hostile answer changed nothing and is not asked again.
    await waitFor(() => expect(schemaRequests(service)).toHaveLength(1));
    await waitFor(() => expect(useAppStore.getState().modelOptionsAsked.size).toBe(1));
    expect(within(options()).queryByLabelText('acceleration')).toBeNull();
    expect(within(options()).getByRole('textbox', { name: 'Steps' })).toBeTruthy();
    await user.click(within(options()).getByRole('button', { name: 'Refresh options' }));
    await within(options()).findByLabelText('acceleration');
    expect(schemaRequests(service)).toHaveLength(2);
    // Kept by main as `pictor models show --refresh` keeps them, and the page sent no key or address.
    expect(main.runtime.core.paramSchemas.kept().map((kept) => kept.model)).toEqual([MODEL]);
    expect(main.callsTo('models:refresh')).toContainEqual({ provider: 'fal', model: MODEL });
    expect(schemaRequests(service).every((entry) => entry.auth === null)).toBe(true);
  });

  // Fault: fal's dialect answers the refresh with a schema whose `$ref`s loop.
  it('says why a hostile schema is refused and keeps the options shown', async () => {
    const { user, service } = await startOnFal();
    await within(options()).findByLabelText('acceleration');
    expect(schemaRequests(service)).toHaveLength(1);
    service.addFault({ route: 'schema', effect: { type: 'body', body: LOOPING } } as FaultRule);
    await user.click(within(options()).getByRole('button', { name: 'Refresh options' }));
    const alert = await within(options()).findByRole('alert');
    expect(alert.textContent).toMatch(
      /^The options .+ published for fal-ai\/flux\/dev are too large, too deep, loop on themselves/,
    );
    expect(within(options()).getByLabelText('acceleration')).toBeTruthy();
    expect(within(options()).getByRole('button', { name: 'Refresh options' })).toBeTruthy();
  });

  it('fetches a listed model’s options once on its first use', async () => {
    const { service } = await startOnFal();
    await within(options()).findByLabelText('acceleration');
    act(() => useAppStore.getState().composeSetDraft({ model: 'fal-ai/flux/schnell' }));
    act(() => useAppStore.getState().composeSetDraft({ model: MODEL }));
    await waitFor(() => expect(schemaRequests(service)).toHaveLength(2));
    expect(schemaRequests(service).map((entry) => entry.path)).toEqual([
      '/api/openapi/queue/openapi.json?endpoint_id=fal-ai%2Fflux%2Fdev',
      '/api/openapi/queue/openapi.json?endpoint_id=fal-ai%2Fflux%2Fschnell',
    ]);
  });
});
