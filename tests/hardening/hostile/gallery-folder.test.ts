/**
 * `rebuild` reads a gallery folder someone may have crafted. Real files in a temp
 * folder: FIFOs, sockets, links and folders named like a sidecar or an image, oversized and
 * out-of-range sidecars, images the user deleted, and a sidecar claiming it is not imported.
 * Every rebuild here must end on its own, in seconds: a FIFO opened the ordinary way never does.
 */
import { mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../shared/text/control-characters';
import type { Gallery } from '../../../electron/core/gallery/gallery';
import { MAX_SIDECAR_BYTES, sidecarText } from '../../../electron/core/gallery/sidecar';
import {
  MAX_ACCOUNT_CHARS,
  MAX_DETAIL_CHARS,
  MAX_ENDPOINT_CHARS,
  MAX_IMAGES_PER_TASK,
  MAX_LOCAL_ID_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_PATH_CHARS,
  MAX_TASK_ID_CHARS,
  MAX_URL_CHARS,
} from '../../../shared/domain/limits';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { makeTaskRecord } from '../../support/task-records';
import { refusalSchema } from '../../../shared/ipc/archive-contract';
import { fifoMaker, makeFifo, needing } from '../../support/tools';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { rebuildLibrary } from '../../../electron/core/library/rebuild-verified';
import type { ImageIntake } from '../../../electron/core/download/image-intake';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** Far more than a rebuild of a few folders takes; far less than "forever". */
const ENDS_WITHIN_MS = 10_000;
const CREATED = Date.UTC(2024, 4, 17, 9, 5, 7);

let base: string;
let root: string;
let gallery: Gallery;
let intake: ImageIntake;
let png: Buffer;
const servers: Server[] = [];

beforeEach(async () => {
  base = await realpath(await tempFolder('hostile-gallery'));
  root = join(base, 'gallery');
  ({ gallery, intake } = galleryOnServer(root));
  await gallery.init();
  png ??= await sharp({ create: { width: 6, height: 4, channels: 3, background: '#0a0' } })
    .png()
    .toBuffer();
});

afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  await removeFolder(base);
});

function image(index: number, overrides: Partial<ImageRecord> = {}): ImageRecord {
  return {
    index,
    url: `https://cdn.example.com/${index}.png`,
    state: 'pending',
    attempts: 0,
    favourite: false,
    ...overrides,
  };
}

function record(id: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return makeTaskRecord(
    {
      localId: `c0ffee00-0000-4000-8000-${id.padStart(12, '0')}`,
      taskId: `task-${id}`,
      request: { prompt: `Task ${id}` },
      images: [image(0)],
      folder: `2024/05/${id}`,
      ...overrides,
    },
    CREATED,
  );
}

/** Writes the task's folder with its sidecar; returns the folder's absolute path. */
async function writeTask(task: TaskRecord, text = sidecarText(task)): Promise<string> {
  const folder = join(root, task.folder ?? 'loose');
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'pictor.json'), text);
  return folder;
}

/** FIFOs: none on Windows, so the tests that plant one are skipped there, saying why. */
const FIFO = fifoMaker();

async function socketAt(path: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
}

/** The rebuild, failing the test if it does not end by itself within the bound. */
async function rebuildBounded() {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('rebuild did not finish')), ENDS_WITHIN_MS);
  });
  try {
    return await Promise.race([rebuildLibrary(intake), hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe('rebuild opens only regular files', () => {
  it.skipIf(!FIFO.path)(
    needing(FIFO, 'a FIFO, socket, link or folder named pictor.json is never read and never hangs'),
    async () => {
      const good = record('1');
      await writeTask(good);
      for (const name of ['fifo', 'socket', 'link', 'folder']) {
        await mkdir(join(root, '2024', '06', name), { recursive: true });
      }
      makeFifo(FIFO, join(root, '2024/06/fifo/pictor.json'));
      await socketAt(join(root, '2024/06/socket/pictor.json'));
      // A link to a valid sidecar outside the gallery.
      const outside = join(base, 'outside.json');
      await writeFile(outside, sidecarText(record('2')));
      await symlink(outside, join(root, '2024/06/link/pictor.json'));
      await mkdir(join(root, '2024/06/folder/pictor.json'));
      const { records } = await rebuildBounded();
      expect(records.map((task) => task.localId)).toEqual([good.localId]);
    },
  );

  it.skipIf(!FIFO.path)(
    needing(FIFO, 'a FIFO, socket, link or folder named like an image is not taken for the image'),
    async () => {
      const saved: Partial<ImageRecord> = {
        state: 'saved',
        mime: 'image/png',
        width: 6,
        height: 4,
        bytes: png.length,
        file: 'x',
      };
      // Image 0: recorded saved with its size (the path that only stats the file); image 1:
      // pending (the crash-repair path that reads the file's header); one task per impostor.
      const impostors: Record<string, (path: string) => Promise<void>> = {
        fifo: async (path) => makeFifo(FIFO, path),
        socket: socketAt,
        link: async (path) => {
          await writeFile(join(base, 'real.png'), png);
          await symlink(join(base, 'real.png'), path);
        },
        folder: (path) => mkdir(path).then(() => undefined),
      };
      let id = 10;
      const folders: string[] = [];
      for (const make of Object.values(impostors)) {
        id += 1;
        const task = record(String(id), { images: [image(0, saved), image(1)] });
        const folder = await writeTask(task);
        await make(join(folder, 'image-1.png'));
        await make(join(folder, 'image-2.png'));
        folders.push(task.localId);
      }
      const { records } = await rebuildBounded();
      expect(records.map((task) => task.localId)).toEqual(folders);
      for (const task of records) {
        for (const rebuilt of task.images) {
          expect(rebuilt.state, `${task.folder} image ${rebuilt.index}`).toBe('pending');
          expect(rebuilt.file).toBeUndefined();
        }
      }
    },
  );

  it.skipIf(!FIFO.path)(
    needing(
      FIFO,
      'a real image beside the impostors is still found (the checks refuse only what they must)',
    ),
    async () => {
      const task = record('20', { images: [image(0), image(1)] });
      const folder = await writeTask(task);
      await writeFile(join(folder, 'image-1.png'), png);
      makeFifo(FIFO, join(folder, 'image-2.png'));
      const [rebuilt] = (await rebuildBounded()).records;
      expect(rebuilt?.images[0]).toMatchObject({ state: 'saved', width: 6, height: 4 });
      expect(rebuilt?.images[1]).toMatchObject({ state: 'pending' });
    },
  );
});

describe('rebuild caps every sidecar', () => {
  it('refuses a sidecar over the size cap, with a reason, before parsing it', async () => {
    const big = record('30', { request: { prompt: 'x'.repeat(30_000) } });
    const text = sidecarText(big).replace(
      '"app"',
      `"pad": "${' '.repeat(MAX_SIDECAR_BYTES)}", "app"`,
    );
    await writeTask(big, text);
    const { records, skipped } = await rebuildBounded();
    expect(records).toEqual([]);
    expect(skipped).toEqual([
      {
        path: '2024/05/30/pictor.json',
        reason: expect.stringMatching(/larger than/),
        reasonSentence: {
          key: 'error.library.unsafeFile',
          params: { what: 'sidecar', why: 'tooLarge', max: String(MAX_SIDECAR_BYTES) },
        },
      },
    ]);
  });

  it('refuses a sidecar whose dates or fields are out of range, keeping the others', async () => {
    const cases: Array<[string, Partial<TaskRecord>]> = [
      ['created-far-future', { createdAt: 1e16 }],
      ['updated-negative', { updatedAt: -5 }],
      ['finished-fraction', { finishedAt: CREATED + 0.5 }],
      ['polls-huge', { polls: 1e300 }],
      ['url-megabyte', { images: [image(0, { url: `https://x/${'a'.repeat(1 << 20)}` })] }],
      ['too-many-images', { images: Array.from({ length: 200 }, (_, i) => image(i % 16)) }],
      // Two images staged into one file, two rows of one key in the history.
      ['index-twice', { images: [image(0), image(1), image(0, { url: 'https://x/other.png' })] }],
      // Its name is in the reason: refused in words the window's list takes, steering nothing.
      [
        'option-steering',
        {
          request: {
            prompt: 'p',
            params: { [`\u202e\u001b]52;c;eA==\u0007${'x'.repeat(3_000)}`]: {} },
          },
        } as never,
      ],
      ['error-novel', { error: { kind: 'server', message: 'm'.repeat(MAX_MESSAGE_CHARS + 1) } }],
      // An id the service could not have given (checkTaskId refuses both): shown reversed, and
      // one "Copy task ID" could not hand over.
      ['task-id-bidi', { taskId: 'task-\u202egnp.exe' }],
      ['task-id-isolate', { taskId: '\u2067task-48' }],
      ['task-id-control', { taskId: 'task-\u001b[2J' }],
    ];
    let id = 40;
    for (const [name, overrides] of cases) {
      id += 1;
      await writeTask(record(String(id), { ...overrides, folder: `bad/${name}` }));
    }
    const good = record('99');
    await writeTask(good);
    const { records, skipped } = await rebuildBounded();
    expect(records.map((task) => task.localId)).toEqual([good.localId]);
    expect(skipped.map((skip) => skip.path).sort()).toEqual(
      cases.map(([name]) => `bad/${name}/pictor.json`).sort(),
    );
    for (const skip of skipped) {
      expect(skip.reason).toMatch(/^The (task record|sidecar)/);
      expect(refusalSchema().safeParse(skip).success, skip.path).toBe(true);
      expect(skip.reason, skip.path).not.toMatch(
        anyOf([CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS]),
      );
    }
  });

  it('a record with every field at its limit still fits a sidecar and comes back', async () => {
    const id = 'f'.repeat(MAX_LOCAL_ID_CHARS);
    const path = 'p'.repeat(MAX_PATH_CHARS);
    const full = record('50', {
      localId: id,
      taskId: 't'.repeat(MAX_TASK_ID_CHARS),
      endpoint: 'e'.repeat(MAX_ENDPOINT_CHARS),
      account: 'a'.repeat(MAX_ACCOUNT_CHARS),
      // Three bytes per character in UTF-8.
      request: {
        prompt: '\u2603'.repeat(32_000),
        model: 'm'.repeat(200),
        quality: 'q'.repeat(100),
      },
      error: {
        kind: 'server',
        message: 'm'.repeat(MAX_MESSAGE_CHARS),
        detail: 'd'.repeat(MAX_DETAIL_CHARS),
      },
      images: Array.from({ length: MAX_IMAGES_PER_TASK }, (_, index) =>
        image(index, {
          url: 'u'.repeat(MAX_URL_CHARS),
          state: 'expired',
          file: path,
          thumbnail: path,
          error: 'e'.repeat(MAX_MESSAGE_CHARS),
        }),
      ),
      folder: '2024/05/full',
      // Five names of 100 characters, each four bytes in UTF-8.
      board: Array.from({ length: 5 }, () => '\u{1F3A8}'.repeat(100)).join('/'),
    });
    const text = sidecarText(full);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_SIDECAR_BYTES);
    await writeTask(full, text);
    const { records, skipped } = await rebuildBounded();
    expect(skipped).toEqual([]);
    expect(records.map((task) => task.localId)).toEqual([id]);
    expect(records[0]?.board).toBe(full.board);
  });
});

describe('rebuild keeps what the user decided', () => {
  it('an image the user deleted stays deleted, whether or not a file of its name is there', async () => {
    const task = record('60', {
      images: [image(0, { state: 'deleted' }), image(1, { state: 'deleted' }), image(2)],
    });
    const folder = await writeTask(task);
    // Image 1 put back (restored from the trash, copied, planted); image 2 never deleted.
    await writeFile(join(folder, 'image-2.png'), png);
    await writeFile(join(folder, 'image-3.png'), png);
    const [rebuilt] = (await rebuildBounded()).records;
    expect(rebuilt?.images.map((one) => one.state)).toEqual(['deleted', 'deleted', 'saved']);
    expect(rebuilt?.images[1]?.file).toBeUndefined();
    expect(rebuilt?.images[1]?.url).toBe(task.images[1]?.url);
  });

  it('marks every record it returns as imported, whatever the sidecar says', async () => {
    await writeTask(record('70', { imported: false }));
    await writeTask(record('71'));
    const { records } = await rebuildBounded();
    expect(records.map((task) => task.imported)).toEqual([true, true]);
    // The flag is also what the sidecar of an imported record says from then on.
    expect(JSON.parse(sidecarText(records[0]!)).record.imported).toBe(true);
    expect(JSON.parse(await readFile(join(root, '2024/05/70/pictor.json'), 'utf8')).record).toEqual(
      expect.objectContaining({ imported: false }),
    );
  });
});
