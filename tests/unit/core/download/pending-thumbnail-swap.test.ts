/**
 * A pending thumbnail made by the app's engine (Chromium's codecs in the image renderer, which
 * the main process serves each job's file to) while another local process swaps a folder of the
 * gallery for a link to an outside twin. The header check opens the image inside the gallery and
 * passes; the swap then comes right before the engine's file is opened for the page. What the
 * main process serves the page must still be the gallery's image, or nothing: never the
 * private image outside.
 */
import { mkdir, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImageRecord } from '../../../../shared/domain/task-record';
import type { ImageJob } from '../../../../shared/image-renderer/protocol';
import { resolveInside } from '../../../../electron/core/fs/gallery-path';
import { makeSavedThumbnail } from '../../../../electron/core/download/saved-thumbnail';
import { RendererImageEngine } from '../../../../electron/core/images/renderer-image-engine';
import type {
  ImageRendererConnection,
  ImageRendererEvents,
  ImageRendererHost,
} from '../../../../electron/ports/image-renderer-host';
import { ManualClock } from '../../../fakes/manual-clock';
import { makeImage } from '../../../support/gallery-helpers';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const TASK = '2025/01/2025-01-01_0900_task';
const IMAGE = `${TASK}/image-1.png`;

let dir: string;
let root: string;
let own: Buffer;
let secret: Buffer;

beforeEach(async () => {
  dir = await tempFolder('gallery');
  root = join(dir, 'gallery');
  await mkdir(join(root, ...TASK.split('/')), { recursive: true });
  own = await makeImage('png', 24, 16);
  await writeFile(join(root, ...IMAGE.split('/')), own);
  // The twin outside: the same layout, a private image of the same size.
  secret = await makeImage('png', 24, 16);
  await mkdir(join(dir, 'outside', ...TASK.split('/')), { recursive: true });
  await writeFile(join(dir, 'outside', ...IMAGE.split('/')), secret);
});

afterEach(async () => {
  await removeFolder(dir);
});

/**
 * An image renderer whose page asks for each job's bytes the moment it gets the job, with the
 * month folder swapped for a link to the outside twin just before (and put back after); it keeps
 * what it was served and answers that it could not decode it.
 */
class SwappingPage implements ImageRendererHost {
  readonly served: Buffer[] = [];
  engine: RendererImageEngine | null = null;

  sourceUrl(token: string): string {
    return `test-image://job/${token}`;
  }

  start(events: ImageRendererEvents): Promise<ImageRendererConnection> {
    queueMicrotask(() => events.answer({ type: 'ready' }));
    return Promise.resolve({
      post: (request) => {
        if (request.type === 'thumbnail') void this.serve(request, events);
      },
      close: () => undefined,
    });
  }

  private async serve(job: ImageJob, events: ImageRendererEvents): Promise<void> {
    const month = join(root, '2025', '01');
    await rename(month, `${month}.away`);
    await symlink(join(dir, 'outside', '2025', '01'), month, 'dir');
    try {
      const response = await (this.engine as RendererImageEngine).sources.serve(
        new Request(job.url),
      );
      this.served.push(Buffer.from(await response.arrayBuffer()));
    } finally {
      await unlink(month);
      await rename(`${month}.away`, month);
    }
    events.answer({ type: 'undecodable', id: job.id, detail: 'stand-in page' });
  }
}

const image: ImageRecord = {
  index: 0,
  url: 'https://cdn.example.com/1.png',
  state: 'saved',
  file: IMAGE,
  mime: 'image/png',
  width: 24,
  height: 16,
  bytes: 0,
  attempts: 1,
  favourite: false,
  thumbnailPending: true,
};

describe('a pending thumbnail through the app’s image engine', () => {
  it('serves the page nothing from outside when a folder is swapped after the header check', async () => {
    const page = new SwappingPage();
    const engine = new RendererImageEngine({
      host: page,
      pageOrigin: 'pictor-app://images',
      clock: new ManualClock(),
    });
    page.engine = engine;
    try {
      const result = await makeSavedThumbnail(root, (path) => resolveInside(root, path), image, {
        root,
        maxPixels: 1_000_000,
        maxImageBytes: 1024 * 1024,
        thumbnailSize: 16,
        imageEngine: engine,
      });
      // The header check passed and the engine's file was asked for: the swap struck there.
      expect(page.served).toHaveLength(1);
      const secretPixels = secret.subarray(33, secret.length - 12);
      expect(page.served.some((body) => body.includes(secretPixels))).toBe(false);
      expect(result.kind).not.toBe('made');
    } finally {
      await engine.dispose();
    }
  });

  it('serves the gallery’s own image when nothing is swapped', async () => {
    const engine = new RendererImageEngine({
      host: {
        sourceUrl: (token) => `test-image://job/${token}`,
        start: (events) => {
          queueMicrotask(() => events.answer({ type: 'ready' }));
          return Promise.resolve({
            post: (request) => {
              if (request.type !== 'thumbnail') return;
              void engine.sources.serve(new Request(request.url)).then(async (response) => {
                served.push(Buffer.from(await response.arrayBuffer()));
                events.answer({ type: 'undecodable', id: request.id, detail: 'stand-in page' });
              });
            },
            close: () => undefined,
          });
        },
      },
      pageOrigin: 'pictor-app://images',
      clock: new ManualClock(),
    });
    const served: Buffer[] = [];
    try {
      await makeSavedThumbnail(root, (path) => resolveInside(root, path), image, {
        root,
        maxPixels: 1_000_000,
        maxImageBytes: 1024 * 1024,
        thumbnailSize: 16,
        imageEngine: engine,
      });
      expect(served).toEqual([own]);
    } finally {
      await engine.dispose();
    }
  });
});
