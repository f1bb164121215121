/**
 * The command line against a loopback port another user of this computer listens on: `pictor
 * generate` sends nothing there and says why (the address, the user), its output never carrying
 * the key, nor does the ask for a model's published options that comes before the core opens; with the address listed in the app's settings (settings.json's `allowedLocalServers`,
 * which the command reads as the app does) it is sent to. The listener is real, started as
 * `nobody`, so only a root run on Linux can start it: elsewhere the suite is skipped, with the reason
 * printed (local-server-squatter.test.ts has the injected-owner cases, which run on any Linux).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { DEFAULT_SETTINGS } from '../../../shared/domain/settings';
import { describeInProcess, runInProcess } from '../../support/cli-in-process';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { memoryTempParent } from '../../support/memory-temp';

const KEY = 'sk-cli-squatted-port-5b8e0a';

/**
 * Python's listener as `nobody`: prints its port, then `GOT` for each connection that brings it
 * a byte (the CLI judges a connection once made, before writing: it may connect, never send).
 */
const LISTENER = [
  'import socket',
  's=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(8)',
  'print(s.getsockname()[1],flush=True)',
  'while True:',
  '  c,_=s.accept()',
  '  if c.recv(65536): print("GOT",flush=True)',
  '  c.close()',
].join('\n');

const AS_ROOT = process.platform === 'linux' && process.getuid?.() === 0;
if (!AS_ROOT) console.warn('skipped: a real listener as another user needs root (Linux) to start');

describe.runIf(AS_ROOT)('pictor generate to another user’s loopback server', () => {
  let dir = '';
  let out = '';
  let port = 0;
  let stop = (): void => undefined;

  beforeAll(async () => {
    dir = await tempFolder('squat-cli', memoryTempParent());
    const child = spawn('python3', ['-c', LISTENER], { uid: 65534, gid: 65534, cwd: '/' });
    stop = () => void child.kill();
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await vi.waitFor(() => expect(out).toMatch(/^\d+\n/), UNTIL);
    port = Number(out.split('\n')[0]);
  });
  afterAll(async () => {
    stop();
    await removeFolder(dir);
  });

  const generate = () =>
    runInProcess(
      [
        'generate',
        '--prompt',
        'a lighthouse',
        '--base-url',
        `http://127.0.0.1:${port}`,
        '--data-dir',
        join(dir, 'data'),
        '--timeout',
        '5',
      ],
      { SERVICE_API_KEY: KEY, HOME: dir },
    );

  it('sends nothing and says who runs the server, without the key', async () => {
    const run = await generate();
    const printed = `${run.stdout}\n${run.stderr}`;
    expect(run.code, describeInProcess(run)).not.toBe(0);
    expect(printed).toContain(`127.0.0.1:${port}`);
    expect(printed).toContain('another user on this computer');
    expect(printed).toContain('uid 65534');
    expect(printed).not.toContain(KEY);
    expect(out).not.toContain('GOT');
  });

  // A model's published options are asked before the core opens (models-schemas.ts), carrying
  // the key to fal's or Replicate's address: the same gate, whether --param asks on first use or
  // `models show --refresh` does.
  const asksForOptions = [
    ['generate', '--prompt', 'a lighthouse', '--provider', 'replicate', '--seed', '5', '--dry-run'],
    ['models', 'show', 'black-forest-labs/flux-schnell', '--provider', 'replicate', '--refresh'],
  ];
  it.each(asksForOptions)('asks no model options of it either (%s)', async (...words) => {
    const run = await runInProcess(
      [...words, '--base-url', `http://127.0.0.1:${port}`, '--data-dir', join(dir, 'data')],
      { SERVICE_API_KEY: KEY, HOME: dir },
    );
    const printed = `${run.stdout}\n${run.stderr}`;
    expect(printed, describeInProcess(run)).toContain('another user on this computer');
    expect(printed).not.toContain(KEY);
    expect(out).not.toContain('GOT');
  });

  it('sends once the app’s settings allow the address', async () => {
    new JsonFileKv(join(dir, 'data'), 'settings').set('settings', {
      ...DEFAULT_SETTINGS,
      allowedLocalServers: [`127.0.0.1:${port}`],
    });
    await generate();
    expect(out).toContain('GOT');
  });
});
