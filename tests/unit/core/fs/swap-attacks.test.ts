/**
 * Every reader of files under a root it must stay inside, against the attacker who sees every
 * file call and swaps a folder of the gallery for a link to an outside twin around each one
 * (scripted-swaps.ts): each check, made alone, sees the real folder, and every open leads out.
 * The twin holds a private image (a real PNG) and a sidecar naming a private prompt. Whatever
 * each reader does (serve, rebuild, import, export, copy out, move), neither may come out of it.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { galleryUrl } from '../../../../shared/ipc/api';
import { exportImages } from '../../../../electron/core/batch/export-images';
import { resolveInside } from '../../../../electron/core/fs/gallery-path';
import { rebuildFromFolder } from '../../../../electron/core/library/rebuild';
import { relocateGallery } from '../../../../electron/core/library/relocate';
import { sidecarText } from '../../../../electron/core/gallery/sidecar';
import { exportLibrary } from '../../../../electron/core/library/archive/export-library';
import { importLibrary } from '../../../../electron/core/library/archive/import-library';
import { serveGalleryRequest } from '../../../../electron/app/protocol/gallery-request';
import { filesUnder } from '../../../support/files';
import { makeImage } from '../../../support/gallery-helpers';
import { scriptSwaps } from '../../../support/scripted-swaps';
import { addTask, makeLibrary, type Library } from '../library/archive/library-fixture';
import { removeFolder } from '../../../support/temp-folders';

const SECRET_PROMPT = 'a private prompt from outside the gallery';

let library: Library;
let other: Library;
let record: TaskRecord;
let secret: Buffer;

beforeEach(async () => {
  library = await makeLibrary();
  other = await makeLibrary();
  record = await addTask(library, ['png']);
  // The twin outside: the task's own layout, a private image and a sidecar of its own.
  secret = await makeImage('png', 37, 29);
  const twin = join(library.dir, 'outside', ...(record.folder ?? '').split('/'));
  await mkdir(twin, { recursive: true });
  await writeFile(join(twin, 'image-1.png'), secret);
  const theirs = { ...record, request: { ...record.request, prompt: SECRET_PROMPT } };
  await writeFile(join(twin, 'pictor.json'), sidecarText(theirs));
});

afterEach(async () => {
  library.history.close();
  other.history.close();
  await removeFolder(library.dir);
  await removeFolder(other.dir);
});

/** The private image's own bytes (past the signature and header every PNG shares). */
const secretBytes = () => secret.subarray(33, secret.length - 12);

async function leaked(texts: readonly (Buffer | string)[]): Promise<boolean> {
  return texts.some((text) => {
    const bytes = Buffer.from(text);
    return bytes.includes(secretBytes()) || bytes.includes(SECRET_PROMPT);
  });
}

async function contents(folder: string): Promise<Buffer[]> {
  const files = await filesUnder(folder, { missing: 'empty' });
  return Promise.all(files.map((file) => readFile(file)));
}

const historyText = (of: Library) => JSON.stringify(of.history.list({ limit: 500 }).items);

/** Each reader: runs while the attack is on, then says what came out of it. */
const READERS: Record<string, () => Promise<() => Promise<(Buffer | string)[]>>> = {
  'the gallery protocol': async () => {
    const file = record.images[0]?.file ?? '';
    const response = await serveGalleryRequest(new Request(galleryUrl(file)), library.root);
    const body = Buffer.from(await response.arrayBuffer());
    return async () => [body];
  },
  'a rebuild from the folder': async () => {
    const result = await rebuildFromFolder(library.root);
    return async () => [JSON.stringify(result.records)];
  },
  'a folder import': async () => {
    await importLibrary({ intake: other.intake, history: other.history, source: library.root });
    return async () => [...(await contents(other.root)), historyText(other)];
  },
  'an archive export': async () => {
    const target = join(library.dir, 'library.zip');
    await exportLibrary({
      root: library.root,
      history: library.history,
      target,
      pictorVersion: '0.0.0',
    });
    return async () => {
      // Read back through an import: the archive's entries are compressed.
      await importLibrary({ intake: other.intake, history: other.history, source: target });
      return [...(await contents(other.root)), historyText(other)];
    };
  },
  'an export of images': async () => {
    const folder = join(library.dir, 'exported');
    await mkdir(folder);
    await exportImages(
      {
        get: (id) => library.history.get(id),
        gallery: { root: library.root, resolve: (path) => resolveInside(library.root, path) },
      },
      [record.localId],
      folder,
    );
    return async () => contents(folder);
  },
  'a gallery move': async () => {
    const target = join(library.dir, 'moved');
    await relocateGallery(library.root, target, {
      home: join(library.dir, 'home'),
      dataDir: join(library.dir, 'data'),
      platform: 'linux',
    }).catch(() => undefined);
    return async () => contents(target);
  },
};

describe.each(Object.keys(READERS))('%s, against a folder swapped around each call', (name) => {
  it.each(['year', 'month', 'task'])(
    'the %s folder: nothing from outside comes out',
    async (level) => {
      const depth = { year: 1, month: 2, task: 3 }[level] ?? 3;
      const relative = (record.folder ?? '').split('/').slice(0, depth);
      const swaps = scriptSwaps(
        join(library.root, ...relative),
        join(library.dir, 'outside', ...relative),
      );
      let collect: () => Promise<(Buffer | string)[]>;
      try {
        collect = await (READERS[name] as () => Promise<() => Promise<(Buffer | string)[]>>)();
      } finally {
        await swaps.restore();
      }
      // The attack struck: some open went through the link.
      expect(swaps.linked()).toBeGreaterThan(0);
      expect(await leaked(await collect())).toBe(false);
    },
  );
});

describe('the same readers, with nothing swapped', () => {
  it.each(Object.keys(READERS))('%s carries the gallery’s own image', async (name) => {
    const own = await readFile(join(library.root, ...(record.images[0]?.file ?? '').split('/')));
    const collect = await (READERS[name] as () => Promise<() => Promise<(Buffer | string)[]>>)();
    const out = await collect();
    if (name === 'a rebuild from the folder') {
      expect(out.join('')).toContain(record.request.prompt);
    } else {
      expect(
        out.some((text) => Buffer.from(text).includes(own.subarray(33, own.length - 12))),
      ).toBe(true);
    }
  });
});

afterEach(async () => {
  await rm(join(library.dir, 'outside'), { recursive: true, force: true });
});
