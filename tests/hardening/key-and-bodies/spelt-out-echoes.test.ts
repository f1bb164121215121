/**
 * A hostile service that echoes the key SPELT OUT: its letters apart, with plain spaces, line
 * separators (U+2028, which the service's reader makes a space), tabs, no-break spaces, dots,
 * emoji or accents between them, or in letters of a wider form (fullwidth, mathematical), in a
 * failed task's error, a refused submit's error, a task id or a reported model. A person reads
 * the key in each. Each runs through the real core (HTTP client over loopback to a node:http
 * service in this file, engine, SQLite history, gallery, a rotating log with the key redactor);
 * afterwards every file, every engine event (what the page is sent) and the record are read for
 * the key as a person would: the test's own reading (NFKC, then letters and digits only), with
 * any 12 of the key's letters and digits in order counting as a leak.
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
import { bundledAnswers } from '../../support/bundled-history-worker';
import { newLibraryAt } from '../../support/migrated-history';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import { speltLeaks as leaks } from './key-encodings';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-spelt-4Rw8Tq2Ny6Mz0Kp3Vd7';
/** Another key the app holds (another service's), which the service may echo as well. */
const HELD = 'held-Gx5Lb9Jc1Hf4Ws8Qe2';

const fullwidth = (c: string) =>
  /[!-~]/.test(c) ? String.fromCodePoint(c.charCodeAt(0) - 0x21 + 0xff01) : c;
const mathBold = (c: string) => {
  if (/[a-z]/.test(c)) return String.fromCodePoint(0x1d41a + c.charCodeAt(0) - 0x61);
  if (/[A-Z]/.test(c)) return String.fromCodePoint(0x1d400 + c.charCodeAt(0) - 0x41);
  if (/[0-9]/.test(c)) return String.fromCodePoint(0x1d7ce + c.charCodeAt(0) - 0x30);
  return c;
};

/** Each way of spelling a key out, by name. */
const SPELLINGS: Record<string, (key: string) => string> = {
  'plain spaces': (key) => [...key].join(' '),
  'line separators (U+2028)': (key) => [...key].join('\u2028'),
  'paragraph separators (U+2029)': (key) => [...key].join('\u2029'),
  'tabs and newlines': (key) => [...key].join('\t\n'),
  'no-break spaces': (key) => [...key].join('\u00a0'),
  'ideographic spaces': (key) => [...key].join('\u3000'),
  'dots and spaces': (key) => [...key].join(' . '),
  dashes: (key) => [...key].join('-'),
  emoji: (key) => [...key].join('\u{1f511}'),
  'a combining accent on each letter': (key) => [...key].map((c) => `${c}\u0301`).join(''),
  'accented letters, precomposed': (key) =>
    [...key].map((c) => `${c}\u0301`.normalize('NFC')).join(' '),
  'fullwidth letters': (key) => [...key].map(fullwidth).join(''),
  'mathematical bold letters, spaced': (key) => [...key].map(mathBold).join(' '),
  'HTML no-break space entities': (key) => [...key].join('&nbsp;'),
};

/** Where the service puts the spelt-out key, and what the task must end as. */
const PLACES = {
  failedError: 'failed',
  submitError: 'submit_failed',
  taskId: 'submit_unknown',
  model: 'completed',
} as const;
type Place = keyof typeof PLACES;

interface Scene {
  readonly place: Place;
  readonly echo: string;
}

let server: TestServer;
let png: Buffer;
let scene: Scene | null = null;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#639' } })
    .png()
    .toBuffer();
  server = await startServer((req, res) => {
    if (!scene) return json(res, 503, { error: 'no scene' });
    const { place, echo } = scene;
    if (req.url === '/v1/images/generations') {
      if (place === 'submitError') return json(res, 400, { error: { message: `Bad key ${echo}` } });
      if (place === 'taskId') return json(res, 200, { id: `task ${echo}` });
      return json(res, 200, { id: 'task-1', ...(place === 'model' ? { model: echo } : {}) });
    }
    if (req.url?.startsWith('/v1/tasks/')) {
      if (place === 'failedError')
        return json(res, 200, { status: 'failed', error: { message: `Refused for ${echo}.` } });
      return json(res, 200, {
        status: 'completed',
        output: { data: [{ url: `${server.origin}/img/ok.png` }] },
        ...(place === 'model' ? { model: echo } : {}),
      });
    }
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

/** One task through the real core; its record and every text the run wrote or sent. */
async function run(next: Scene): Promise<{ record: TaskRecord; texts: string[] }> {
  scene = next;
  const dir = await tempFolder('spelt-echo');
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
    historyPort: { inThread: true },
    ...bundledAnswers(),
  });
  const texts: string[] = [];
  try {
    core.engine.start({ resume: false });
    const collecting = core.engine.onDidUpdate((update) => texts.push(JSON.stringify(update)));
    const [submitted] = await core.engine.submit(
      { prompt: 'a spelt-out echo' },
      targetAt(server.origin),
    );
    const [record] = await core.engine.whenSettled([submitted!.localId]);
    collecting.dispose();
    texts.push(JSON.stringify(record));
    await core.close();
    await logger.close();
    for (const file of await listFiles(dir)) {
      const bytes = await readFile(join(dir, file));
      texts.push(bytes.toString('utf8'));
    }
    return { record: record!, texts };
  } finally {
    await core.close().catch(() => undefined);
    await logger.close().catch(() => undefined);
    await removeFolder(dir);
    scene = null;
  }
}

/**
 * Every spelling at the failed task's error, with the key sent and another held; each place
 * with the spellings a service's reader changes most (U+2028, plain spaces, fullwidth).
 */
const CASES: [string, Place, string][] = [
  ...Object.keys(SPELLINGS).flatMap((name): [string, Place, string][] => [
    [name, 'failedError', KEY],
    [name, 'failedError', HELD],
  ]),
  ...(['submitError', 'taskId', 'model'] as const).flatMap((place) =>
    ['line separators (U+2028)', 'plain spaces', 'fullwidth letters'].map(
      (name): [string, Place, string] => [name, place, KEY],
    ),
  ),
];

describe('a key spelt out by a hostile service', () => {
  it.each(CASES)(
    'with %s, at %s, is never stored, sent to the page or logged',
    async (name, place, key) => {
      const echo = SPELLINGS[name]!(key);
      // The test's reading finds the key in what the service sends (a positive control).
      expect(leaks(echo, key)).not.toEqual([]);
      const { record, texts } = await run({ place, echo });
      const found = texts.flatMap((text) => [...leaks(text, KEY), ...leaks(text, HELD)]);
      expect(found, `${name} at ${place}`).toEqual([]);
      expect(record.status).toBe(PLACES[place]);
    },
  );

  it('keeps ordinary spaced text: an error without the key reaches the record as it was', async () => {
    const message = 'T h e  s e r v i c e\u2028i s  b u s y — t r y  a g a i n';
    const { record } = await run({ place: 'failedError', echo: message });
    expect(record.status).toBe('failed');
    expect(JSON.stringify(record)).not.toContain('[redacted]');
  });
});
