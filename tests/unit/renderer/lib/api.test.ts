import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, imageUrl, listen, toApiError } from '../../../../renderer/lib/api';
import { GALLERY_BASE } from '../../../../shared/ipc/api';
import { startInterceptedApi, type InterceptedApi } from '../../../support/intercepted-api';
import type { WiredApi } from '../../../support/wired-api';
import { sharedWiredMain } from '../shared-wired-main';
import { UNTIL } from '../../../support/waits';

const shared = sharedWiredMain();
let own: InterceptedApi | null = null;
afterEach(async () => {
  await own?.close();
  own = null;
});

/** The real main's `window.pictor` (tests/support/wired-api.ts), installed as the preload does. */
async function wired(): Promise<WiredApi> {
  const main = await shared();
  (window as { pictor?: unknown }).pictor = main.api;
  return main;
}

describe('lib/api', () => {
  it('builds image URLs from the host’s gallery base, path segments encoded', async () => {
    const main = await wired();
    expect(imageUrl('2026/01/a b/image-1.png')).toBe(
      'pictor-gallery://gallery/2026/01/a%20b/image-1.png',
    );
    // The chromium host's bridge serves the gallery over http (tests/e2e/harness/app-server.ts).
    (window as { pictor?: unknown }).pictor = {
      ...main.api,
      galleryBase: 'http://127.0.0.1:4000/gallery/',
    };
    expect(imageUrl('2026/01/#x/image-1.png')).toBe(
      'http://127.0.0.1:4000/gallery/2026/01/%23x/image-1.png',
    );
  });

  it('resolves the value of an ok Result', async () => {
    const main = await wired();
    main.runtime.settings.update({ defaultModel: 'm1' });
    await expect(call('settings:get')).resolves.toMatchObject({ defaultModel: 'm1' });
    expect(main.callsTo('settings:get')).toEqual([undefined]);
  });

  // Fault: tasks:list fails with a sentence and a technical detail (a history that cannot be read).
  it('throws ApiError with the sentence, code and detail of a failed Result', async () => {
    own = await startInterceptedApi();
    (window as { pictor?: unknown }).pictor = own.api;
    own.intercept.request['tasks:list'].fail({
      code: 'failed',
      message: 'The history could not be read.',
      detail: 'SQLITE_BUSY',
    });
    const error = await call('tasks:list', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'failed',
      message: 'The history could not be read.',
      detail: 'SQLITE_BUSY',
    });
  });

  it('throws ApiError with the sentence and code of main’s refusal', async () => {
    await wired();
    const error = await call('tasks:resume', { localId: 'not-in-history' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'That task is not in the history.' });
  });

  it('reports bad input from the bridge as ApiError bad_input', async () => {
    const main = await wired();
    const target = { provider: 'pictor', endpoint: 'demo:' } as const;
    const error = await call('tasks:submit', { request: { prompt: '' }, target, count: 1 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'bad_input' });
    // Main's input schema refused it: nothing reached the history.
    expect(main.callsTo('tasks:submit')).toHaveLength(1);
    expect(main.runtime.core.history.count({})).toBe(0);
  });

  // Fault: no bridge at all, then a bridge whose invoke rejects (no handler registered).
  it('turns a missing bridge or a rejected invoke into a sentence', async () => {
    await expect(call('app:getInfo')).rejects.toMatchObject({ code: 'unavailable' });
    // A bridge, not main: its invoke rejects before any handler runs.
    (window as { pictor?: unknown }).pictor = {
      galleryBase: GALLERY_BASE,
      invoke: () => Promise.reject(new Error('No handler registered')),
      on: () => () => undefined,
    };
    const error = await call('app:getInfo').catch((caught: unknown) => caught as ApiError);
    expect(error).toMatchObject({ code: 'unavailable', detail: 'No handler registered' });
    expect((error as ApiError).message).toMatch(/window/);
  });

  it('listen subscribes and unsubscribes', async () => {
    const main = await wired();
    const listener = vi.fn();
    const stop = listen('network:changed', listener);
    main.send('network:changed', { online: false });
    await vi.waitFor(() => expect(listener).toHaveBeenCalledTimes(1), UNTIL);
    stop();
    // A listener still subscribed hears the next one: the first did not.
    const after = vi.fn();
    const stopAfter = listen('network:changed', after);
    main.send('network:changed', { online: true });
    await vi.waitFor(() => expect(after).toHaveBeenCalledTimes(1), UNTIL);
    stopAfter();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith({ online: false });
  });

  it('toApiError keeps ApiErrors and wraps anything else with a sentence', () => {
    const original = new ApiError('not_found', 'Gone.');
    expect(toApiError(original)).toBe(original);
    expect(toApiError(new Error('boom'), 'It failed.')).toMatchObject({
      message: 'It failed.',
      detail: 'boom',
    });
    expect(toApiError('x').message.length).toBeGreaterThan(10);
  });
});
