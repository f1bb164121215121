/**
 * Another user of this computer squatting a loopback port Pictor sends to (ComfyUI's 8188 before
 * the real one starts; a local gateway the user set a key for): it would receive the prompt, the
 * inputs and the Bearer key. On Linux the core reads the listening socket's owner from the socket
 * tables before each request (core/service/local-server-gate.ts) and refuses another user's server
 * unless the user allowed its address in Settings.
 *
 * The squatter is a real server on loopback that records every connection and byte it gets. Its
 * owner is made another user by rewriting the uid of its row in the real tables (a fault the test
 * injects); where this test runs as root, a second case starts a real listener as `nobody` and the
 * kernel itself reports it. Through the real core (openPictorCore: the app's and the CLI's
 * composition), its engine and its client.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { readSocketTables, type SocketTables } from '../../../electron/core/service/local-owner';
import { ServiceError } from '../../../electron/core/service';
import { StaticCredentials } from '../../fakes/static-credentials';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { sendJson, startServer, type TestServer } from '../../support/http-servers';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import { UNTIL } from '../../support/waits';
import { ownedBy } from '../support/owned-tables';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { memoryTempParent } from '../../support/memory-temp';

const KEY = 'sk-squatted-port-key-7e21c9';
const OTHER_UID = 4242;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A squatter on loopback that answers a submit as a service would, and keeps what it got. */
async function squatter(host = '127.0.0.1'): Promise<TestServer> {
  const server = await startServer((_req, res) => sendJson(res, 200, { id: 'task-1' }), { host });
  cleanups.push(() => server.close());
  return server;
}

interface Setup {
  readonly baseUrl: string;
  readonly tables?: () => Promise<SocketTables>;
  readonly allowed?: readonly string[];
}

async function core(setup: Setup): Promise<PictorCore> {
  const dir = await tempFolder('squat', memoryTempParent());
  cleanups.push(() => removeFolder(dir));
  const opened = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch: (url, init) => fetch(url, init),
    credentials: new StaticCredentials(setup.baseUrl, KEY),
    clock: systemClock,
    requestTimeoutMs: 5_000,
    // The one test that starts the engine waits for its first download attempt, which came at the
    // first poll: 3 s of real time at the engine's interval, most of the file's 3.5 s. What it
    // judges is what the attempt sends and says, not when it is made.
    engine: { pollIntervalMs: 200 },
    historyPort: { inThread: true },
    inputSettings: () => ({
      neverUploadInputs: false,
      publicUploadConsent: [],
      allowedLocalServers: setup.allowed ?? [],
    }),
    ...(setup.tables ? { localServers: { tables: setup.tables } } : {}),
    ...bundledAnswers(),
  });
  cleanups.push(() => opened.close());
  return opened;
}

/** What the engine made of one submit to `baseUrl`. */
async function submitOnce(opened: PictorCore, baseUrl: string) {
  const [record] = await opened.engine.submit(
    { prompt: 'a lighthouse', size: '64x64' },
    targetAt(baseUrl),
  );
  const id = record!.localId;
  await vi.waitFor(() => expect(opened.engine.get(id)?.status).not.toBe('submitting'), UNTIL);
  return opened.engine.get(id)!;
}

const ONLY_LINUX = process.platform !== 'linux';

describe.skipIf(ONLY_LINUX)('a loopback server another user runs (Linux)', () => {
  it.each(['127.0.0.1', '[::1]', 'localhost'])(
    'is sent nothing at %s: the task says who runs it, and the key is nowhere',
    async (host) => {
      const server = await squatter(host === '[::1]' ? '::1' : '127.0.0.1');
      const baseUrl = `http://${host}:${server.port}`;
      const tables = async () => ownedBy(await readSocketTables(), server.port, OTHER_UID);
      const opened = await core({ baseUrl, tables });
      const record = await submitOnce(opened, baseUrl);

      expect(server.connections()).toBe(0);
      expect(server.requests).toEqual([]);
      expect(record.status).toBe('submit_failed');
      expect(record.error?.message).toContain(`${host}:${server.port}`);
      expect(record.error?.message).toContain(`uid ${OTHER_UID}`);
      expect(record.error?.message).toContain('another user on this computer');
      expect(JSON.stringify(record)).not.toContain(KEY);
    },
  );

  it('refuses every request of the client alike: a poll and a key check send nothing', async () => {
    const server = await squatter();
    const baseUrl = `http://127.0.0.1:${server.port}`;
    const tables = async () => ownedBy(await readSocketTables(), server.port, OTHER_UID);
    const opened = await core({ baseUrl, tables });
    const credentials = { baseUrl, key: KEY, keyFingerprint: 'f', provider: 'pictor' as const };
    for (const call of [
      () => opened.client.getTask(credentials, { taskId: 'task-1' }),
      () => opened.client.submit(credentials, { prompt: 'p' }),
    ]) {
      const error = await call().then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).kind).toBe('config');
      expect((error as ServiceError).mayHaveReachedService).toBe(false);
      expect((error as ServiceError).sentence?.key).toBe('error.service.localServerOtherUser');
    }
    expect(server.connections()).toBe(0);
  });

  it('is sent to once the user allowed its address, and only that address', async () => {
    const allowedServer = await squatter();
    const other = await squatter();
    const tables = async () => {
      const real = await readSocketTables();
      return ownedBy(ownedBy(real, allowedServer.port, OTHER_UID), other.port, OTHER_UID);
    };
    const allowed = [`127.0.0.1:${allowedServer.port}`];
    const trusted = await core({ baseUrl: allowedServer.origin, tables, allowed });
    await submitOnce(trusted, allowedServer.origin);
    expect(allowedServer.requests).toHaveLength(1);
    expect(allowedServer.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);

    const refused = await submitOnce(
      await core({ baseUrl: other.origin, tables, allowed }),
      other.origin,
    );
    expect(refused.status).toBe('submit_failed');
    expect(other.connections()).toBe(0);
  });

  it('is sent to as before when the server is this user’s, or its owner cannot be read', async () => {
    const ours = await squatter();
    await submitOnce(await core({ baseUrl: ours.origin }), ours.origin);
    expect(ours.requests).toHaveLength(1);

    const unknown = await squatter();
    const unreadable = async () => ({ tcp: null, tcp6: null });
    await submitOnce(await core({ baseUrl: unknown.origin, tables: unreadable }), unknown.origin);
    expect(unknown.requests).toHaveLength(1);
  });
});

describe.skipIf(ONLY_LINUX)('an image on a loopback port another user runs (Linux)', () => {
  it('is not fetched: the image waits, saying who runs the server', async () => {
    const images = await squatter();
    // This user's service, whose finished task names an image on the squatter's port.
    const service = await startServer((req, res) => {
      if (req.method === 'POST') return sendJson(res, 200, { id: 'task-1' });
      sendJson(res, 200, {
        status: 'completed',
        output: { data: [{ url: `${images.origin}/img/task-1.png` }] },
      });
    });
    cleanups.push(() => service.close());
    const tables = async () => ownedBy(await readSocketTables(), images.port, OTHER_UID);
    const opened = await core({ baseUrl: service.origin, tables });
    opened.engine.start();
    const record = await submitOnce(opened, service.origin);
    const image = () => opened.engine.get(record.localId)?.images[0];
    await vi.waitFor(() => expect(image()?.attempts ?? 0).toBeGreaterThan(0), UNTIL);

    // The download's connection is judged once made, before a byte is written
    // (local-server-connection.test.ts): the squatter may see a connection, never a request.
    expect(images.requests).toEqual([]);
    expect(image()?.state).toBe('pending');
    expect(JSON.stringify(image())).toContain('another user on this computer');
  });
});

/** Python's one-line listener as `nobody`: prints its port, then `GOT` for each connection. */
const LISTENER = [
  'import socket,sys',
  's=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(8)',
  'print(s.getsockname()[1],flush=True)',
  'while True:',
  '  c,_=s.accept(); print("GOT",flush=True); c.close()',
].join('\n');

const AS_ROOT = process.platform === 'linux' && process.getuid?.() === 0;
if (!AS_ROOT) console.warn('skipped: a real listener as another user needs root (Linux) to start');

describe.runIf(AS_ROOT)('a real listener of another user, as the kernel reports it', () => {
  it('is sent nothing', async () => {
    const child = spawn('python3', ['-c', LISTENER], { uid: 65534, gid: 65534, cwd: '/' });
    cleanups.push(async () => void child.kill());
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await vi.waitFor(() => expect(out).toMatch(/^\d+\n/), UNTIL);
    const port = Number(out.split('\n')[0]);
    const baseUrl = `http://127.0.0.1:${port}`;
    const record = await submitOnce(await core({ baseUrl }), baseUrl);
    expect(record.status).toBe('submit_failed');
    expect(record.error?.message).toContain('uid 65534');
    expect(out).not.toContain('GOT');
  });
});
