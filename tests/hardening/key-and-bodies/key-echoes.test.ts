/**
 * A service that echoes the key, in any encoding, in any place of its answers: the key the task
 * was sent with, or another key the app holds (another service's: a hostile service may echo any
 * key it learnt). Random keys over every encoding and every place, each run through the real core (the HTTP service
 * client over loopback to a node:http service in this file, the task engine, the SQLite history,
 * the gallery with its sidecars on disk, a rotating log with the app's key redactor), then the
 * CLI's lines for the finished task. Afterwards every file (history database bytes, sidecars,
 * the log), every engine event (what the IPC bridge forwards to the renderer) and every CLI line
 * is searched for any 12 consecutive characters of the key in any of the encodings, by the
 * test's own scanner (key-encodings.ts), and the places it is found in are named.
 *
 * The negative controls (the third test) put the key where a defence behind the answer's reading
 * stands between it and a place: in an answer's status line (scrubbed in the answer worker, as
 * the body is, and again by the service client's redactError), in a transport error (past the
 * answer worker, to redactError), and in a task id the user gave (tracked, never read from an
 * answer) that carries another key the app holds, past the track's own check (the held keys could
 * not be read when it was typed: an injected fault), which only the log's redactor keeps out of
 * the log line naming the task. Which defence keeps the key out of which place, and which control
 * fails without it, is in the commits that added them.
 */
import { mkdir, readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { CliProgress } from '../../../electron/cli/cli-progress';
import { jsonLine, listLine } from '../../../electron/cli/cli-report';
import { problemLine, resumeLineFor } from '../../../electron/cli/resume-lines';
import { secretRedactor } from '../../../electron/core/logging/redaction';
import { RotatingFileLogger } from '../../../electron/core/logging/rotating-file-logger';
import { HISTORY_FILE, openPictorCore } from '../../../electron/core/pictor-core';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { listFiles } from '../../e2e/harness/disk';
import { StaticCredentials } from '../../fakes/static-credentials';
import { startServer, type TestServer } from '../../support/http-servers';
import { copyMigratedHistory } from '../../support/migrated-history';
import { bundledAnswers, bundledHistoryPort } from '../../support/bundled-history-worker';
import { NOT_MEASURED, recordReliability } from '../support/reliability-record';
import { scaled } from '../support/scale';
import { ENCODINGS, ENCODING_NAMES, keyArb, keyScanner } from './key-encodings';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const FILE = 'tests/hardening/key-and-bodies/key-echoes.test.ts';
/**
 * Tasks run, each one key (random, from the fixed seed under `npm test`) echoed in one encoding at
 * one place. Run n pairs place n mod 11 with encoding n mod 18 (11 and 18 share no factor, so the
 * pairs never repeat before all 198 are run): 57 runs put every encoding at 3 or 4 places and
 * every place under 5 or 6 encodings (both checked below), where 120 random pairs left both to
 * chance at twice the time; `npm run soak` runs every pair about five times.
 */
const RUNS = scaled(57, 1_000);
/**
 * Whether run `run` echoes the other key the app holds rather than the one sent: every second
 * round of the 18 encodings (runs 18–35 of 57), so each encoding and each place is tried with
 * both keys and no run is added.
 */
const echoesHeldKey = (run: number) => Math.floor(run / ENCODING_NAMES.length) % 2 === 1;
const MAX_BODY = 1024 * 1024;

/** Where the service puts the echo, and what the finished task must look like. */
const PLACES = {
  taskId: 'submit_unknown',
  splitIdAndNextField: 'submit_unknown',
  submitErrorDetail: 'submit_failed',
  imageUrl: 'completed',
  imageUrlsSplit: 'completed',
  errorMessage: 'failed',
  errorObject: 'failed',
  errorSplitMessageAndCode: 'failed',
  deeplyNestedError: 'failed',
  pollErrorDetail: 'completed',
  cutAtReadLimit: 'completed',
} as const;
type Place = keyof typeof PLACES;

/**
 * The negative controls' places: past the answer's own checks, where a defence behind them keeps
 * the key out (see the file's head and each control).
 */
const CONTROLS = {
  /**
   * A submit refused with the key in the HTTP reason phrase: scrubbed in the answer worker
   * (statusOutcome, as the body) and again by the service client's redactError. Each alone is
   * proven where it is the only defence: answer-errors-key.test.ts (the worker's), the
   * transportError control (redactError's).
   */
  statusLine: 'submit_failed',
  /** A task query whose transport failed with the key in the error's text (an injected fetch). */
  transportError: 'completed',
  /**
   * A task id the user gave (tracked: no answer of a service, so no answer check) carrying another
   * key the app holds, typed while the held keys could not be read (an injected fault: the track's
   * own check, checkTypedTaskId, refuses it otherwise): the log line naming the task ('task
   * completed') is kept clean by the log's redactor alone.
   */
  heldKeyInTrackedId: 'completed',
} as const;
type Control = keyof typeof CONTROLS;

/** Another key the app holds besides the run's (another service's): heldKeyInTrackedId's echo. */
const OTHER_HELD = 'other-held-Zq81mXv4Lr2Tb9Kd';

/**
 * Each control's encodings: a third of the 18 each, so they are tried once between them; the
 * forms a reason phrase or a task id cannot hold (NUL bytes, zero-width spaces) go to the
 * transport error.
 */
const CONTROL_ENCODINGS = (() => {
  const printable = (encoding: string) => /^[\x21-\x7e]+$/.test(ENCODINGS[encoding]!('k-y', 1));
  const names = Object.keys(CONTROLS) as Control[];
  return Object.fromEntries(
    names.map((control, index) => [
      control,
      ENCODING_NAMES.filter((encoding, at) =>
        printable(encoding) ? at % 3 === index : control === 'transportError',
      ),
    ]),
  ) as Record<Control, string[]>;
})();

interface Scenario {
  readonly place: Place | Control;
  readonly echo: string;
  /** Levels of `{"error": …}` around the nested failure (200 unless set). */
  readonly depth?: number;
  polls: number;
}

let server: TestServer;
let png: Buffer;
let scenario: Scenario | null = null;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function submitAnswer(res: ServerResponse, { place, echo }: Scenario): void {
  const half = Math.floor(echo.length / 2);
  if (place === 'taskId') return json(res, 200, { id: `task-${echo}` });
  if (place === 'splitIdAndNextField')
    return json(res, 200, { id: `task-${echo.slice(0, half)}`, object: echo.slice(half) });
  if (place === 'submitErrorDetail')
    return json(res, 400, { error: { message: `Invalid request from ${echo}` } });
  if (place === 'statusLine') {
    res.writeHead(400, `Refused for ${echo}`, { 'Content-Type': 'application/json' });
    res.end('{"error":{"message":"Invalid request."}}');
    return;
  }
  return json(res, 200, { id: 'task-1' });
}

/** A failure `depth` levels deep, written as text (JSON.stringify would recurse that deep). */
function nested(depth: number, inner: unknown): string {
  const error = `${'{"error":'.repeat(depth)}${JSON.stringify(inner)}${'}'.repeat(depth)}`;
  return `{"status":"failed","error":${error}}`;
}

function taskAnswer(res: ServerResponse, scene: Scenario): void {
  const { place, echo } = scene;
  scene.polls += 1;
  const ok = `${server.origin}/img/ok.png`;
  const half = Math.floor(echo.length / 2);
  const completed = (urls: string[]) =>
    json(res, 200, { status: 'completed', output: { data: urls.map((url) => ({ url })) } });
  const failed = (error: unknown) => json(res, 200, { status: 'failed', error });
  switch (place) {
    case 'imageUrl':
      return completed([`${server.origin}/img/ok.png?sig=${echo}`, ok]);
    case 'imageUrlsSplit':
      return completed([`${ok}?a=${echo.slice(0, half)}`, `${echo.slice(half)}`, ok]);
    case 'errorMessage':
      return failed({ message: `Refused for ${echo}.`, code: 'content_policy' });
    case 'errorObject':
      return failed({ code: echo, param: { value: echo } });
    case 'errorSplitMessageAndCode':
      return failed({ message: `Refused ${echo.slice(0, half)}`, code: echo.slice(half) });
    case 'deeplyNestedError':
      return json(res, 200, nested(scene.depth ?? 200, { message: `bad key ${echo}` }));
    case 'pollErrorDetail':
      if (scene.polls === 1) return json(res, 400, `{"error":"unknown task for ${echo}"}`);
      return completed([ok]);
    case 'cutAtReadLimit':
      if (scene.polls === 1) {
        const lead = `{"error":"${'x'.repeat(MAX_BODY - 20)}`;
        return json(res, 500, `${lead}${echo}"}`);
      }
      return completed([ok]);
    default:
      return completed([ok]);
  }
}

beforeAll(async () => {
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#369' } })
    .png()
    .toBuffer();
  server = await startServer((req, res) => {
    const scene = scenario;
    if (!scene) return json(res, 503, { error: 'no scenario' });
    if (req.url === '/v1/images/generations') return submitAnswer(res, scene);
    if (req.url?.startsWith('/v1/tasks/')) return taskAnswer(res, scene);
    if (req.url?.startsWith('/img/ok.png')) {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      return res.end(png);
    }
    res.writeHead(404).end();
  });
});

afterAll(async () => {
  await server.close();
});

/** A fetch whose first task query fails as a transport library would, `text` in its cause. */
function failingFirstQuery(text: string): typeof fetch {
  let failed = false;
  return (url, init) => {
    const address = url instanceof Request ? url.url : String(url);
    if (!failed && address.includes('/v1/tasks/')) {
      failed = true;
      return Promise.reject(new TypeError('fetch failed', { cause: new Error(`proxy: ${text}`) }));
    }
    return fetch(url, init);
  };
}

interface RunOutcome {
  readonly record: TaskRecord;
  readonly texts: { readonly where: string; readonly text: string }[];
}

/** How a run's core differs from the property's. */
interface RunOptions {
  /** Every key the app holds besides the run's (the credentials' heldKeys); none unless set. */
  readonly held?: readonly string[];
  /**
   * The keys the log's redactor scrubs (the app's: every key it holds); the run's key and
   * `held` unless set.
   */
  readonly redacted?: readonly string[];
  /** What the core sends with (a fault injected in front of the real fetch). */
  readonly fetch?: typeof fetch;
  /** The history on the app's worker thread (the bundled one), across its message boundary. */
  readonly historyWorker?: boolean;
  /**
   * The credentials' heldKeys fails (the OS's storage not answering): only the key sent is
   * searched for, and a tracked id is checked for no other.
   */
  readonly heldUnreadable?: boolean;
}

/** Credentials whose other keys cannot be read now: heldKeys fails. */
class HeldUnreadable extends StaticCredentials {
  override heldKeys(): Promise<readonly string[]> {
    return Promise.reject(new Error('the storage is not answering'));
  }
}

/** One task through the real core against the scenario; everything it wrote or said, as text. */
async function runOnce(
  key: string,
  scene: Scenario,
  options: RunOptions = {},
): Promise<RunOutcome> {
  scenario = scene;
  const dir = await tempFolder('key-echo');
  const dataDir = join(dir, 'data');
  const galleryDir = join(dir, 'gallery');
  await mkdir(dataDir);
  // A migrated history copied in (migrating one at every run was a fifth of the file's CPU): the
  // key never reaches a migration, so the copy is what the run's own first open would have made.
  copyMigratedHistory(join(dataDir, HISTORY_FILE));
  const logger = new RotatingFileLogger({
    dir: join(dataDir, 'logs'),
    minimumLevel: 'debug',
    fallback: () => undefined,
  });
  const held = options.held ?? [];
  logger.setRedactor(secretRedactor(options.redacted ?? [key, ...held]));
  const sendWith = options.fetch ?? fetch;
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir,
    galleryDir,
    fetch: (url, init) => sendWith(url, init),
    credentials: new (options.heldUnreadable ? HeldUnreadable : StaticCredentials)(
      server.origin,
      key,
      server.origin,
      held,
    ),
    clock: systemClock,
    logger,
    requestTimeoutMs: 5_000,
    engine: { pollIntervalMs: 20, maxBackoffMs: 40 },
    // The history's operations on this thread, as the CLI runs them (electron/cli/commands.ts):
    // what is written is the same as from the history worker, and a worker thread started for
    // each of the RUNS cores was a fifth of the file's CPU (see the commit). The runs that cross
    // the worker's message boundary (the app's history) ask for it.
    ...(options.historyWorker ? bundledHistoryPort() : { historyPort: { inThread: true } }),
    ...bundledAnswers(),
  });
  const texts: { where: string; text: string }[] = [];
  try {
    core.engine.start({ resume: false });
    // A task id the user gives is tracked (the app's and the CLI's `track`); any other is submitted.
    const [submitted] =
      scene.place === 'heldKeyInTrackedId'
        ? [await core.engine.track(`task-${scene.echo}`, { endpoint: server.origin })]
        : await core.engine.submit({ prompt: 'an echo' }, targetAt(server.origin), 1);
    const progress = new CliProgress(
      new Set([submitted!.localId]),
      (line) => texts.push({ where: 'cli progress', text: line }),
      () => systemClock.now(),
    );
    const collecting = core.engine.onDidUpdate((update) => {
      texts.push({ where: 'event', text: JSON.stringify(update) });
      progress.onUpdate(update);
    });
    const [record] = await core.engine.whenSettled([submitted!.localId]);
    collecting.dispose();
    const resolve = (relative: string) => core.gallery.resolve(relative);
    texts.push(
      { where: 'cli json', text: jsonLine(record!, resolve) },
      { where: 'cli list', text: listLine(record!) },
      {
        where: 'cli problem',
        text:
          problemLine(
            record!,
            resumeLineFor(record!, { dataDir, galleryDir, namedBaseUrl: server.origin }),
          ) ?? '',
      },
    );
    await core.close();
    await logger.close();
    for (const file of await listFiles(dir)) {
      const bytes = await readFile(join(dir, file));
      texts.push({ where: file, text: bytes.toString('latin1') });
      texts.push({ where: `${file} (utf8)`, text: bytes.toString('utf8') });
    }
    return { record: record!, texts };
  } finally {
    await core.close().catch(() => undefined);
    await logger.close().catch(() => undefined);
    await removeFolder(dir);
    scenario = null;
  }
}

/** What a text the run wrote or said is: its file's kind, or the event or CLI line it is. */
function placeOf(where: string): string {
  const file = where.replace(/ \(utf8\)$/, '');
  if (file.includes('/logs/')) return 'log';
  if (file.startsWith('data/history')) return 'history';
  if (file.startsWith('gallery/')) return file.endsWith('.json') ? 'sidecar' : 'gallery file';
  return file;
}

/** How many forms of each of `keys` each place holds (none: an empty object). */
function leaksByPlace(
  keys: string | readonly string[],
  texts: RunOutcome['texts'],
): Record<string, number> {
  const scanner = keyScanner(keys);
  const found: Record<string, number> = {};
  for (const { where, text } of texts) {
    const forms = scanner.leaks(text).length;
    if (forms > 0) found[placeOf(where)] = (found[placeOf(where)] ?? 0) + forms;
  }
  return found;
}

function expectOutcome(place: Place, record: TaskRecord, where: string): void {
  expect(record.status, where).toBe(PLACES[place]);
  if (place === 'taskId' || place === 'splitIdAndNextField') {
    expect(record.taskId, where).toBeNull();
    expect(record.error?.message, where).toMatch(
      /^The service sent back a task id that contains your API key, so Pictor did not keep it\./,
    );
  }
  if (place === 'imageUrl') {
    expect(
      record.images.map((image) => image.state),
      where,
    ).toEqual(['invalid', 'saved']);
    expect(record.images[0]!.url, where).toBeNull();
    expect(record.images[0]!.error, where).toMatch(/contains your API key/);
  }
  if (place === 'imageUrlsSplit')
    expect(
      record.images.map((image) => image.state),
      where,
    ).toEqual(['invalid', 'invalid', 'saved']);
}

describe('the key echoed by the service, in any encoding and any place', () => {
  it('never reaches the history, a sidecar, the log, an event or a CLI line', async () => {
    const tried: Record<string, number> = {};
    const encodingsTried = new Set<string>();
    let scanned = 0;
    let leaked = 0;
    const places = Object.keys(PLACES) as Place[];
    const heldTried: Record<string, number> = {};
    const keys = fc.sample(fc.tuple(keyArb, keyArb, fc.nat(5)), { numRuns: RUNS });
    for (const [run, [key, other, shift]] of keys.entries()) {
      const place = places[run % places.length]!;
      const encoding = ENCODING_NAMES[run % ENCODING_NAMES.length]!;
      const echoed = echoesHeldKey(run) ? other : key;
      const echo = ENCODINGS[encoding]!(echoed, shift);
      const which = echoed === key ? 'the key sent' : 'another key held';
      const where = `run ${run}: ${place} × ${encoding}, ${which} (${echoed.length} chars, shift ${shift})`;
      const { record, texts } = await runOnce(key, { place, echo, polls: 0 }, { held: [other] });
      // The keys first, by place (a defence taken away shows where a key went), then the end.
      const leaks = leaksByPlace([key, other], texts);
      leaked += Object.values(leaks).reduce((sum, count) => sum + count, 0);
      expect(leaks, where).toEqual({});
      expectOutcome(place, record, where);
      tried[place] = (tried[place] ?? 0) + 1;
      if (echoed === other) heldTried[`${place} × ${encoding}`] = 1;
      encodingsTried.add(encoding);
      scanned += texts.length;
    }
    expect(Object.keys(tried).sort()).toEqual([...places].sort());
    expect([...encodingsTried].sort()).toEqual([...ENCODING_NAMES].sort());
    // The other key held was echoed under every encoding and in every place.
    const heldPairs = Object.keys(heldTried).map((pair) => pair.split(' × '));
    expect(new Set(heldPairs.map(([place]) => place)).size).toBe(places.length);
    expect(new Set(heldPairs.map(([, encoding]) => encoding)).size).toBe(ENCODING_NAMES.length);
    // The scanner finds what it is meant to find (a positive control).
    const control = 'sk-control-0123456789abcdef';
    for (const encoding of ENCODING_NAMES)
      expect(
        keyScanner(control).leaks(`x${ENCODINGS[encoding]!(control, 1)}x`),
        encoding,
      ).not.toEqual([]);
    // The negative controls (below) try every encoding between them.
    expect(Object.values(CONTROL_ENCODINGS).flat().sort()).toEqual([...ENCODING_NAMES].sort());
    recordReliability({
      section: 'key-safety',
      row: 'Key echoed by the service in any encoding and place (property)',
      load: `${RUNS} tasks through the real core over loopback, random keys; ${ENCODING_NAMES.length} encodings × ${Object.keys(PLACES).length} places paired in turn; the key sent or another key held echoed, by turns of ${ENCODING_NAMES.length} runs`,
      injected: tried,
      outcome: { 'texts scanned (files, events, CLI lines)': scanned, 'key forms found': leaked },
      // Every task ran to its recorded end (expectOutcome); this row counts the key only.
      lost: NOT_MEASURED,
      duplicated: NOT_MEASURED,
      leaked,
      file: FILE,
    });
  });

  it.each(Object.keys(CONTROLS) as Control[])(
    'is kept out by the last defence where it gets past the first: %s (negative control)',
    async (control) => {
      const encodings = CONTROL_ENCODINGS[control];
      const keys = fc.sample(keyArb, { numRuns: encodings.length });
      for (const [at, encoding] of encodings.entries()) {
        const key = keys[at]!;
        const echo = ENCODINGS[encoding]!(control === 'heldKeyInTrackedId' ? OTHER_HELD : key, at);
        const where = `${control} × ${encoding}`;
        const { record, texts } = await runOnce(
          key,
          { place: control, echo, polls: 0 },
          {
            // One run on the app's history worker: the error whose text carried the key up to
            // redactError is written to the history across the worker's message boundary.
            historyWorker: control === 'statusLine' && at === 0,
            held: [OTHER_HELD],
            heldUnreadable: control === 'heldKeyInTrackedId',
            ...(control === 'transportError' ? { fetch: failingFirstQuery(echo) } : {}),
          },
        );
        expect(leaksByPlace(key, texts), where).toEqual({});
        expect(record.status, where).toBe(CONTROLS[control]);
        if (control !== 'heldKeyInTrackedId') continue;
        // The id is the user's word, not a service's answer: no answer check reads it; past the
        // track's check (the held keys unreadable then) it is kept, and the log line that names
        // the task ('task completed') carries it. The log's redactor, given every key the app
        // holds (app-runtime.ts's redactKeyIn), keeps it out.
        expect(record.taskId, where).toBe(`task-${echo}`);
        const logs = texts.filter(({ where: file }) => placeOf(file) === 'log');
        expect(logs.length, where).toBeGreaterThan(0);
        expect(leaksByPlace(OTHER_HELD, logs), where).toEqual({});
      }
    },
  );

  it('a deeply nested failure without the key is not reported as carrying it', async () => {
    for (const depth of [1, 100, 10_000]) {
      const key = 'sk-nested-0123456789abcdefgh';
      const scene: Scenario = { place: 'deeplyNestedError', echo: 'no key', depth, polls: 0 };
      const { record } = await runOnce(key, scene);
      expect(record.status).toBe('failed');
      expect(record.error?.message, `depth ${depth}`).not.toMatch(/API key/);
    }
  });
});
