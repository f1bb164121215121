/**
 * The installed app as the `pictor` command, started by the Linux wrapper with the keys on a pipe
 * (resources/linux/pictor.sh, electron/cli/key-pipe.ts): the real start (cli-host.ts) reads the
 * pipe PICTOR_KEYS_FD names before anything else, and the command sends that key to a real
 * loopback service; a PICTOR_KEYS_FD that names no pipe stops the command before it runs.
 */
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAsCommandLine } from '../../../electron/cli-host';
import { pipeHolding } from '../../support/key-pipe-fd';
import { startServer, type TestServer } from '../../support/http-servers';
import { fifoMaker, needing } from '../../support/tools';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

const MKFIFO = fifoMaker();
const KEY = 'sk-pipe-host-Zq8vT3mN0pLx4wQ7';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  Reflect.deleteProperty(process.env, 'PICTOR_KEYS_FD');
});

function fakeApp() {
  const calls: string[] = [];
  return {
    calls,
    app: {
      exit: (code?: number) => void calls.push(`exit ${code}`),
      whenReady: async () => undefined,
      getVersion: () => '9.8.7',
      on: () => undefined as never,
    },
  };
}

const services = {
  safeStorage: {
    isAsyncEncryptionAvailable: async () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret' as const,
  },
  chooseKeyStore: () => undefined,
};

/** A service that refuses every request (the command stops there), recording what it got. */
async function refusingService(): Promise<TestServer> {
  const server = await startServer((_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"error":"no"}');
  });
  cleanups.push(() => server.close());
  return server;
}

/** `pictor generate` to `server` on a fresh library, as the installed app runs it. */
async function generate(server: TestServer) {
  const dir = tempFolderSync('cli-host-pipe');
  cleanups.push(() => removeFolderSync(dir));
  const { app, calls } = fakeApp();
  const printed: string[] = [];
  const code = await runAsCommandLine(
    app,
    ['generate', '--base-url', server.origin, '--prompt', 'a lighthouse', '--data-dir', dir],
    services,
    { stdout: (text) => void printed.push(text), stderr: (text) => void printed.push(text) },
  );
  return { code, calls, printed: printed.join('') };
}

describe.skipIf(!MKFIFO.path)(needing(MKFIFO, 'the pictor command with its key on a pipe'), () => {
  it('reads the key from the pipe first and sends it to the service, printing it nowhere', async () => {
    const server = await refusingService();
    process.env['PICTOR_KEYS_FD'] = String(pipeHolding(MKFIFO, `SERVICE_API_KEY\0${KEY}\0`));
    const { printed } = await generate(server);
    expect(process.env['PICTOR_KEYS_FD']).toBeUndefined();
    expect(process.env['SERVICE_API_KEY']).toBeUndefined();
    expect(server.requests.length).toBeGreaterThan(0);
    const headers = JSON.stringify(server.requests[0]?.headers);
    expect(headers).toContain(KEY);
    expect(printed).not.toContain(KEY);
  });
});

describe('a PICTOR_KEYS_FD that names no pipe', () => {
  it('stops the command with exit code 2 and a sentence, before anything is sent', async () => {
    const dir = tempFolderSync('cli-host-pipe');
    cleanups.push(() => removeFolderSync(dir));
    const file = join(dir, 'keys');
    writeFileSync(file, `SERVICE_API_KEY\0${KEY}\0`);
    const fd = openSync(file, 'r');
    cleanups.push(() => closeSync(fd));
    const server = await refusingService();
    process.env['PICTOR_KEYS_FD'] = String(fd);
    const { code, calls, printed } = await generate(server);
    expect(code).toBe(2);
    expect(calls).toEqual(['exit 2']);
    expect(printed).toBe(
      `The keys handed over by the pictor command cannot be read: descriptor ${fd} is not a pipe.\n`,
    );
    expect(server.requests).toEqual([]);
  });
});
