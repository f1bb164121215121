/**
 * The app's engine: the image renderer until it says it cannot start, then header-only for the
 * rest of the run, the user told once; other failures of the renderer are not a reason to fall back.
 */
import { describe, expect, it, vi } from 'vitest';
vi.mock('electron', () => ({}));

import { appImageEngine } from '../../../../electron/adapters/image-engines/app-image-engine';
import { ImageEngineError, type ImageEngine } from '../../../../electron/ports/image-engine';
import { silentLogger } from '../../../../electron/ports/logger';

const HEADER = {
  format: 'png',
  width: 4,
  height: 4,
  orientation: 1,
  orientedWidth: 4,
  orientedHeight: 4,
} as const;
const REQUEST = { file: '/nowhere/image-1.png', header: HEADER, thumbnailSize: 256 };

function primaryFailing(why: 'unavailable' | 'crashed') {
  const thumbnail = vi.fn(() => Promise.reject(new ImageEngineError('no renderer', why)));
  const engine: ImageEngine = {
    name: 'chromium',
    thumbnail,
    toPng: () => Promise.reject(new ImageEngineError('no renderer', why)),
    renderSvgPng: () => Promise.reject(new ImageEngineError('no renderer', why)),
    dispose: () => Promise.resolve(),
  };
  return { engine, thumbnail };
}

describe('appImageEngine', () => {
  it('falls back to header-only when the renderer is unavailable, once, and says so once', async () => {
    const { engine, thumbnail } = primaryFailing('unavailable');
    const told = vi.fn();
    const app = appImageEngine(silentLogger, told, engine);
    expect(app.name).toBe('chromium');
    await expect(app.thumbnail(REQUEST)).resolves.toEqual({ kind: 'pending' });
    await expect(app.thumbnail(REQUEST)).resolves.toEqual({ kind: 'pending' });
    expect(app.name).toBe('header-only');
    expect(thumbnail).toHaveBeenCalledTimes(1);
    expect(told).toHaveBeenCalledTimes(1);
  });

  it('passes a crash on as it is and keeps the renderer', async () => {
    const { engine, thumbnail } = primaryFailing('crashed');
    const told = vi.fn();
    const app = appImageEngine(silentLogger, told, engine);
    await expect(app.thumbnail(REQUEST)).rejects.toMatchObject({ why: 'crashed' });
    await expect(app.thumbnail(REQUEST)).rejects.toMatchObject({ why: 'crashed' });
    expect(thumbnail).toHaveBeenCalledTimes(2);
    expect(app.name).toBe('chromium');
    expect(told).not.toHaveBeenCalled();
  });
});
