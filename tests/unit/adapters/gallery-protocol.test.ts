import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectron, protocolHandler, resetElectronFakes } from '../../fakes/electron-window';
import { fileFolder } from '../../support/per-test';

vi.mock('electron', async () => (await import('../../fakes/electron-window')).fakeElectron);

const { registerGalleryProtocol } = await import('../../../electron/adapters/gallery-protocol');

let png: Buffer;
const base = fileFolder('gallery-adapter', async (folder) => {
  png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
    .png()
    .toBuffer();
  for (const name of ['first', 'second']) {
    await mkdir(join(folder, name, 'task'), { recursive: true });
    await writeFile(join(folder, name, 'task', 'image-0.png'), png);
  }
  await writeFile(join(folder, 'first', 'only-first.png'), png);
});
beforeEach(() => {
  resetElectronFakes();
});

describe('registerGalleryProtocol', () => {
  it('handles the gallery scheme and streams the image', async () => {
    registerGalleryProtocol({ root: () => join(base(), 'first'), heldKeys: () => [] });
    expect(fakeElectron.protocol.handle).toHaveBeenCalledWith(
      'pictor-gallery',
      expect.any(Function),
    );
    const response = await protocolHandler('pictor-gallery')(
      new Request('pictor-gallery://gallery/task/image-0.png'),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
  });

  it('reads the root on every request (the gallery folder can change)', async () => {
    let root = join(base(), 'first');
    registerGalleryProtocol({ root: () => root, heldKeys: () => [] });
    const handler = protocolHandler('pictor-gallery');
    const url = 'pictor-gallery://gallery/only-first.png';
    expect((await handler(new Request(url))).status).toBe(200);
    root = join(base(), 'second');
    expect((await handler(new Request(url))).status).toBe(404);
  });

  it('refuses a path out of the folder and logs it', async () => {
    const warnings: unknown[] = [];
    const logger = {
      debug() {},
      info() {},
      error() {},
      warn: (...args: unknown[]) => warnings.push(args),
    };
    registerGalleryProtocol({ root: () => join(base(), 'first'), heldKeys: () => [], logger });
    const response = await protocolHandler('pictor-gallery')(
      new Request('pictor-gallery://gallery/..%2fsecond%2ftask%2fimage-0.png'),
    );
    expect(response.status).toBe(403);
    expect(warnings).toEqual([
      [
        'Gallery protocol refused a request',
        { status: 403, url: 'pictor-gallery://gallery/..%2fsecond%2ftask%2fimage-0.png' },
      ],
    ]);
  });
});
