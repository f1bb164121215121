import { describe, expect, it, vi } from 'vitest';
import { ApiError, call, imageUrl, listen, toApiError } from '../../../../renderer/lib/api';
import { FakePictorApi, installFakeApi } from '../../../fakes/fake-pictor-api';

describe('lib/api', () => {
  it('builds image URLs from the host’s gallery base, path segments encoded', () => {
    const fake = installFakeApi();
    expect(imageUrl('2026/01/a b/image-1.png')).toBe(
      'pictor-gallery://gallery/2026/01/a%20b/image-1.png',
    );
    fake.galleryBase = 'http://127.0.0.1:4000/gallery/';
    expect(imageUrl('2026/01/#x/image-1.png')).toBe(
      'http://127.0.0.1:4000/gallery/2026/01/%23x/image-1.png',
    );
  });

  it('resolves the value of an ok Result', async () => {
    const fake = installFakeApi();
    fake.settings = { ...fake.settings, defaultModel: 'm1' };
    await expect(call('settings:get')).resolves.toMatchObject({ defaultModel: 'm1' });
    expect(fake.callsTo('settings:get')).toEqual([undefined]);
  });

  it('throws ApiError with the sentence, code and detail of a failed Result', async () => {
    const fake = installFakeApi();
    fake.fail('tasks:list', {
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

  it('reports bad input from the bridge as ApiError bad_input', async () => {
    installFakeApi();
    const target = { provider: 'pictor', endpoint: 'demo:' } as const;
    const error = await call('tasks:submit', { request: { prompt: '' }, target, count: 1 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'bad_input' });
  });

  it('turns a missing bridge or a rejected invoke into a sentence', async () => {
    await expect(call('app:getInfo')).rejects.toMatchObject({ code: 'unavailable' });
    const broken = new FakePictorApi();
    broken.invoke = () => Promise.reject(new Error('No handler registered'));
    installFakeApi(broken);
    const error = await call('app:getInfo').catch((caught: unknown) => caught as ApiError);
    expect(error).toMatchObject({ code: 'unavailable', detail: 'No handler registered' });
    expect((error as ApiError).message).toMatch(/window/);
  });

  it('listen subscribes and unsubscribes', () => {
    const fake = installFakeApi();
    const listener = vi.fn();
    const stop = listen('network:changed', listener);
    fake.emit('network:changed', { online: false });
    stop();
    fake.emit('network:changed', { online: true });
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
