/**
 * The model a task reports comes from a hostile service: it may be the API
 * key itself, or another key the app holds (another service's; in any encoding, or half of it with the other half in the next field), a megabyte
 * of text, control characters or a right-to-left override. Each runs through the real core (HTTP
 * client over loopback to a node:http service in this file, engine, SQLite history, gallery with
 * sidecars, a rotating log with the key redactor); afterwards every file, every engine event
 * (what the page is sent) and the gallery items the page lists are searched for the key by the
 * test's own scanner, and the record must hold no model or exactly the usable one.
 *
 * The history runs on the test's thread (as the CLI runs it), but for the first echo, which crosses
 * the app's history worker's message boundary: the same store's code writes the same files
 * either way, and the page's lists are read on main's own connection in both.
 */
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { secretRedactor } from '../../../electron/core/logging/redaction';
import { RotatingFileLogger } from '../../../electron/core/logging/rotating-file-logger';
import { openPictorCore } from '../../../electron/core/pictor-core';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { listFiles } from '../../e2e/harness/disk';
import { StaticCredentials } from '../../fakes/static-credentials';
import { startServer, type TestServer } from '../../support/http-servers';
import { bundledAnswers, bundledCoreWorkers } from '../../support/bundled-history-worker';
import { newLibraryAt } from '../../support/migrated-history';
import { ENCODINGS, keyScanner } from './key-encodings';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-model-echo-7Hq2Zp9Lw4Xc1Vb8';
/** Another key the app holds (the credentials' heldKeys), which the service may echo as well. */
const HELD = 'held-Rt5Yu8Io1Pa3Sd6FgW2nE';

/** What the service puts in `model` (submit and poll answers alike), and the rest of the body. */
interface Scene {
  readonly submit: Record<string, unknown>;
  readonly poll: Record<string, unknown>;
}

let server: TestServer;
let png: Buffer;
let scene: Scene | null = null;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#963' } })
    .png()
    .toBuffer();
  server = await startServer((req, res) => {
    if (!scene) return json(res, 503, { error: 'no scene' });
    if (req.url === '/v1/images/generations')
      return json(res, 200, { id: 'task-1', ...scene.submit });
    if (req.url?.startsWith('/v1/tasks/'))
      return json(res, 200, {
        status: 'completed',
        output: { data: [{ url: `${server.origin}/img/ok.png` }] },
        ...scene.poll,
      });
    if (req.url === '/img/ok.png') {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      return res.end(png);
    }
    res.writeHead(404).end();
  });
});

afterAll(async () => {
  await server.close();
});

/**
 * One task through the real core; its record and every text the run wrote or sent. The history
 * on the app's worker thread when `historyWorker`, else on this one (see the file's head).
 */
async function run(
  next: Scene,
  historyWorker = false,
): Promise<{ record: TaskRecord; texts: string[] }> {
  scene = next;
  const dir = await tempFolder('model-echo');
  // A migrated history copied in, as key-echoes does: the key never reaches a migration.
  await newLibraryAt(join(dir, 'data'));
  const logger = new RotatingFileLogger({
    dir: join(dir, 'data', 'logs'),
    minimumLevel: 'debug',
    fallback: () => undefined,
  });
  logger.setRedactor(secretRedactor([KEY, HELD]));
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch: (url, init) => fetch(url, init),
    credentials: new StaticCredentials(server.origin, KEY, server.origin, [HELD]),
    clock: systemClock,
    logger,
    requestTimeoutMs: 5_000,
    engine: { pollIntervalMs: 20, maxBackoffMs: 40 },
    ...(historyWorker
      ? bundledCoreWorkers()
      : { historyPort: { inThread: true }, ...bundledAnswers() }),
  });
  const texts: string[] = [];
  try {
    core.engine.start({ resume: false });
    const collecting = core.engine.onDidUpdate((update) => texts.push(JSON.stringify(update)));
    const [submitted] = await core.engine.submit(
      { prompt: 'a model echo' },
      targetAt(server.origin),
    );
    const [record] = await core.engine.whenSettled([submitted!.localId]);
    collecting.dispose();
    texts.push(JSON.stringify(core.history.listImages({ states: ['saved'], cursor: null })));
    texts.push(JSON.stringify(core.history.imageModels()));
    await core.close();
    await logger.close();
    for (const file of await listFiles(dir)) {
      const bytes = await readFile(join(dir, file));
      texts.push(bytes.toString('latin1'), bytes.toString('utf8'));
    }
    return { record: record!, texts };
  } finally {
    await core.close().catch(() => undefined);
    await logger.close().catch(() => undefined);
    await removeFolder(dir);
    scene = null;
  }
}

/** Each echo of `key` (the one sent, or another the app holds), by name. */
function echoesOf(key: string, which: string): Record<string, Scene> {
  const half = Math.floor(key.length / 2);
  const scenes: Record<string, Scene> = {
    'the key as the model': { submit: { model: key }, poll: { model: key } },
    'the key in upper case': { submit: {}, poll: { model: key.toUpperCase() } },
    'base64 of Bearer <key>': { submit: {}, poll: { model: ENCODINGS.bearerBase64!(key, 1) } },
    'hex of the key': { submit: { model: ENCODINGS.hexLower!(key, 0) }, poll: {} },
    'a model name around the key': { submit: {}, poll: { model: `image-${key}-v2` } },
    'half in the model, half in the next field': {
      submit: { model: key.slice(0, half), object: key.slice(half) },
      poll: { model: key.slice(0, half), object: key.slice(half) },
    },
  };
  return Object.fromEntries(Object.entries(scenes).map(([name, s]) => [`${name}, ${which}`, s]));
}

const ECHOES: Record<string, Scene> = {
  ...echoesOf(KEY, 'the key sent'),
  ...echoesOf(HELD, 'another key held'),
};

/** The echo whose run crosses the history worker's message boundary. */
const FIRST_ECHO = 'the key as the model, the key sent';

describe('a reported model from a hostile service', () => {
  it.each(Object.entries(ECHOES))(
    'that carries the key (%s) is never stored, sent to the page or logged',
    async (name, echo) => {
      const { record, texts } = await run(echo, name === FIRST_ECHO);
      // The keys first (a defence taken away shows where one went), then the record.
      const scanners = [keyScanner(KEY), keyScanner(HELD)];
      const leaks = texts.flatMap((text) => scanners.flatMap((scanner) => scanner.leaks(text)));
      expect(leaks).toEqual([]);
      expect(record.status).toBe('completed');
      expect(record.reportedModel).toBeUndefined();
    },
  );

  it('keeps a usable name, and the scanner finds the key where it is (positive controls)', async () => {
    const { record, texts } = await run({ submit: {}, poll: { model: 'flux-1.1-pro' } });
    expect(record.reportedModel).toBe('flux-1.1-pro');
    expect(texts.some((text) => text.includes('flux-1.1-pro'))).toBe(true);
    expect(keyScanner(KEY).leaks(`model: ${KEY}`)).not.toEqual([]);
    // One echo's run crosses the history worker's message boundary.
    expect(Object.keys(ECHOES)).toContain(FIRST_ECHO);
  });

  it.each([
    // Just under the client's 1 MiB read limit (a longer body is refused whole, before any field).
    ['nearly a megabyte of text', 'm'.repeat(1000 * 1024)],
    ['control characters', 'demo\u0000image\u001b[31m'],
    ['a right-to-left override', 'demo\u202eimage'],
    ['a line separator', 'demo\u2028image'],
    ['a number', 42],
    ['an object', { name: 'demo-image-1' }],
    ['an empty name', '   '],
  ])('that is %s is dropped, and the task completes as usual', async (_, model) => {
    const { record, texts } = await run({ submit: { model }, poll: { model } });
    expect(record.status).toBe('completed');
    expect(record.images.map((image) => image.state)).toEqual(['saved']);
    expect(record.reportedModel).toBeUndefined();
    if (typeof model === 'string' && model.length > 1000)
      expect(texts.every((text) => !text.includes('m'.repeat(1000)))).toBe(true);
  });
});
