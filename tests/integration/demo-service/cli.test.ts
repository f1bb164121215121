import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../electron/demo-service/cli-args';
import { UsageError } from '../../../electron/core/command-line/command-line';
import { DemoOptionsError, resolveOptions } from '../../../electron/demo-service/options';
import { C2PA_FIXTURES } from '../../support/c2pa-hostile';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { needing, pathOf, posixShell } from '../../support/tools';
import { UNTIL } from '../../support/waits';
import { REPO_ROOT } from '../../support/source-files';

const children: ChildProcess[] = [];
/** The shell npm runs scripts with on Linux and macOS (skipped, saying why, without one). */
const SH = posixShell();

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

/**
 * Starts the demo service's command line as a process of its own (its exit codes, signals and
 * output are what these tests read), from the run's bundle of electron/demo-service/cli.ts
 * (tests/support/node-entries.ts): `node --import tsx` transpiled its sources anew at each of the
 * file's eight starts. `npm run demo-service`'s own line, which starts the sources, is the first
 * two tests'.
 */
function runCli(args: string[]): Run {
  const child = spawn(process.execPath, [...nodeEntryArgs('demo-service'), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return tracked(child);
}

/** `child`'s output as it comes, and its exit. */
function tracked(child: ChildProcess): Run {
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** Resolves with the URL once the CLI prints its listening line. */
function listeningUrl(run: Run): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(run.stdout());
      if (match) resolve(match[1]!);
    };
    run.child.stdout!.on('data', check);
    void run.exit.then((code) =>
      reject(new Error(`exited ${code} before listening: ${run.stderr()}`)),
    );
  });
}

// afterAll, not afterEach: the bad-argument cases run concurrently.
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('demo service CLI', () => {
  it.skipIf(!SH.path)(
    needing(
      SH,
      'stops when the process that started it is gone (npm run stopped: the port is freed)',
    ),
    async () => {
      // As `npm run demo-service` starts it: through a shell that does not exec it (`; true`), so
      // killing the shell (what stopping npm does) leaves the server orphaned.
      const shell = tracked(
        spawn(pathOf(SH), ['-c', 'node --import tsx electron/demo-service/cli.ts --port 0; true'], {
          cwd: REPO_ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      // Its line, however long a loaded machine takes to start it (it was 20 s: tsx's start at a
      // load of 30 took longer); an exit before it fails at once.
      const url = await listeningUrl(shell);
      expect((await fetch(`${url}/v1/tasks/none`)).status).toBe(401);
      shell.child.kill('SIGKILL');
      // It looks at its parent every 500 ms of its own timers, which a loaded machine delays: the
      // shared wait, not 10 s.
      await expect
        .poll(
          () =>
            fetch(`${url}/v1/tasks/none`).then(
              () => 'answering',
              () => 'closed',
            ),
          UNTIL,
        )
        .toBe('closed');
    },
  );

  it('npm run demo-service runs the server in the script’s own process (no wrapper that outlives npm)', async () => {
    const manifest = JSON.parse(
      await import('node:fs/promises').then((fs) =>
        fs.readFile(join(REPO_ROOT, 'package.json'), 'utf8'),
      ),
    ) as { scripts: Record<string, string> };
    expect(manifest.scripts['demo-service']).toMatch(
      /^node --import tsx electron\/demo-service\/cli\.ts$/,
    );
  });

  it('listens, answers with the given keys, and exits 0 on SIGTERM', async () => {
    const run = runCli(['--port', '0', '--key', 'a:k', '--key', 'b:sk-bob', '--duration', '100']);
    const url = await listeningUrl(run);
    const submit = await fetch(`${url}/v1/images/generations`, {
      method: 'POST',
      headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompt: 'from the CLI', size: '32x32' }),
    });
    expect(submit.status).toBe(200);
    const { id } = (await submit.json()) as { id: string };
    expect(
      (await fetch(`${url}/v1/tasks/${id}`, { headers: { Authorization: 'Bearer sk-bob' } }))
        .status,
    ).toBe(404);
    expect(
      (await fetch(`${url}/v1/tasks/${id}`, { headers: { Authorization: 'Bearer demo' } })).status,
    ).toBe(401);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toBe(`listening on ${url}\n`);
    expect(run.stdout() + run.stderr()).not.toMatch(/sk-bob|Bearer k/);
  });

  it('accepts key "demo" without --key, serves the control API with --control, and exits 0 on SIGINT', async () => {
    const run = runCli([
      '--port',
      '0',
      '--control',
      '--credits',
      'demo:1',
      '--redirect-images',
      '--duration',
      '0-0',
    ]);
    const url = await listeningUrl(run);
    const headers = { Authorization: 'Bearer demo', 'Content-Type': 'application/json' };
    const body = JSON.stringify({ prompt: 'p', size: '16x16' });
    const first = await fetch(`${url}/v1/images/generations`, { method: 'POST', headers, body });
    expect(first.status).toBe(200);
    expect(
      (await fetch(`${url}/v1/images/generations`, { method: 'POST', headers, body })).status,
    ).toBe(402);
    const tasks = (await (await fetch(`${url}/_demo/tasks`)).json()) as { imageUrls: string[] }[];
    expect(tasks[0]!.imageUrls[0]).toMatch(/\/r\//);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
  });

  it('serves --image-file files as they are, each with the type its bytes say', async () => {
    const files = ['signed.jpg', 'signed.webp'].map((name) => join(C2PA_FIXTURES, name));
    const run = runCli(
      ['--port', '0', '--duration', '0', '--images-per-task', '3'].concat(
        files.flatMap((file) => ['--image-file', file]),
      ),
    );
    const url = await listeningUrl(run);
    const headers = { Authorization: 'Bearer demo', 'Content-Type': 'application/json' };
    const body = JSON.stringify({ prompt: 'signed', size: '96x64' });
    const submit = await fetch(`${url}/v1/images/generations`, { method: 'POST', headers, body });
    const { id } = (await submit.json()) as { id: string };
    const task = (await (await fetch(`${url}/v1/tasks/${id}`, { headers })).json()) as {
      output: { data: { url: string }[] };
    };
    const served = await Promise.all(
      task.output.data.map(async (image) => {
        const response = await fetch(image.url);
        return { type: response.headers.get('content-type'), bytes: await response.bytes() };
      }),
    );
    // Image n is file n, the third the first again.
    expect(served.map((image) => image.type)).toEqual(['image/jpeg', 'image/webp', 'image/jpeg']);
    for (const [index, image] of served.entries()) {
      const file = await readFile(files[index % files.length]!);
      expect(Buffer.from(image.bytes).equals(file)).toBe(true);
    }
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('prints the options for --help and exits 0', async () => {
    const run = runCli(['--help']);
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toContain('--failure-rate');
  });

  const badArguments: [string, string[], RegExp][] = [
    ['a port that is not a number', ['--port', 'abc'], /--port/],
    [
      'a key given as a separate argument',
      ['--key', 'alice', 'sk-stray-secret'],
      /Unexpected argument/,
    ],
    [
      'two accounts sharing a key',
      ['--key', 'a:same-secret', '--key', 'b:same-secret'],
      /same key/,
    ],
    ['an image file that is not there', ['--image-file', 'no-such-file.png'], /ENOENT/],
    ['an image file that is not an image', ['--image-file', 'package.json'], /image files/],
  ];

  it.concurrent.each(badArguments)(
    'exits 2 with a message on stderr for %s, never printing a key',
    async (_label, args, message) => {
      const run = runCli(args);
      expect(await run.exit).toBe(2);
      expect(run.stderr()).toMatch(message);
      expect(run.stdout()).toBe('');
      expect(run.stderr()).not.toMatch(/secret/);
    },
  );
});

/** The rest of the argument checks, in-process (spawning costs a second each). */
describe('demo service CLI arguments', () => {
  function usageError(args: string[]): string {
    try {
      const command = parseCliArgs(args);
      if (command.kind === 'run') resolveOptions(command.options);
    } catch (error) {
      if (error instanceof UsageError || error instanceof DemoOptionsError) return error.message;
      throw error;
    }
    throw new Error(`accepted: ${args.join(' ')}`);
  }

  it.each([
    [['--port', '70000'], /port/],
    [['--port', '-1'], /--port/],
    [['--key', 'sk-lonely-secret'], /--key number 1 must look like account:key/],
    [['--key', 'a:k', '--key', ':sk-other-secret'], /--key number 2/],
    [['--key', 'a:sk with space secret'], /--key number 1/],
    [['--frobnicate'], /^Unknown option\.$/],
    [['--faliure-rate', '1'], /^Unknown option\. Did you mean --failure-rate\?$/],
    [['--key'], /^--key needs a value\.$/],
    [['--failure-rate', '2'], /--failure-rate/],
    [['--failure-rate', 'often'], /--failure-rate/],
    [['--duration', '5000-1000'], /--duration/],
    [['--duration', 'slow'], /--duration/],
    [['--key', 'a:k', '--credits', 'bob:3'], /"bob"/],
    [['--credits', 'demo:-3'], /--credits/],
    [['--images-per-task', '0'], /Images per task/],
    [['--image-ttl', '1.5'], /--image-ttl/],
    [['--max-image-side', '0'], /image side cap/],
    [['--cost', 'later:{}'], /--cost must look like/],
    [['--cost', 'late:{cost:'], /usage object as JSON/],
    [['--cost', 'header:0.04\nUSD'], /printable ASCII/],
  ] as [string[], RegExp][])('refuses %j', (args, message) => {
    const text = usageError(args);
    expect(text).toMatch(message);
    expect(text).not.toMatch(/secret/);
  });

  it('turns valid arguments into options', () => {
    const command = parseCliArgs([
      '--port',
      '8080',
      '--host',
      '127.0.0.1',
      '--key',
      'alice:sk-a:with-colon',
      '--key',
      'bob:kb',
      '--credits',
      'alice:5',
      '--duration',
      '3000-8000',
      '--failure-rate',
      '0.1',
      '--images-per-task',
      '2',
      '--image-ttl',
      '60000',
      '--redirect-images',
      '--control',
      '--seed',
      '7',
      '--max-image-side',
      '1024',
      '--image-file',
      'a.png',
      '--image-file',
      'b.jpg',
    ]);
    expect(command).toEqual({
      kind: 'run',
      options: {
        host: '127.0.0.1',
        port: 8080,
        accounts: [
          { account: 'alice', key: 'sk-a:with-colon', credits: 5 },
          { account: 'bob', key: 'kb' },
        ],
        durationMs: { min: 3000, max: 8000 },
        failureRate: 0.1,
        imagesPerTask: 2,
        imageUrlTtlMs: 60000,
        redirectImages: true,
        maxImageSide: 1024,
        seed: 7,
        control: true,
      },
      imageFiles: ['a.png', 'b.jpg'],
    });
    expect(parseCliArgs(['--duration', '3000'])).toMatchObject({
      options: { durationMs: { min: 3000, max: 3000 } },
    });
    expect(parseCliArgs([])).toMatchObject({
      options: { accounts: [{ account: 'demo', key: 'demo' }] },
    });
  });

  it('says what tasks cost with --cost, the usage object sent as given', () => {
    expect(parseCliArgs(['--cost', 'late:{"cost":-5}'])).toMatchObject({
      options: { cost: { where: 'late', usage: { cost: -5 } } },
    });
    expect(parseCliArgs(['--cost', 'header:3 credits'])).toMatchObject({
      options: { cost: { where: 'header', header: '3 credits' } },
    });
  });
});
