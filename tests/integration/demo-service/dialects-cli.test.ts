import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../electron/demo-service/cli-args';
import { UsageError } from '../../../electron/core/command-line/command-line';
import { DemoOptionsError, resolveOptions } from '../../../electron/demo-service/options';
import type { RequestLogEntry } from '../../../electron/demo-service/types';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { call, send } from './dialect-helpers';
import { REPO_ROOT } from '../../support/source-files';

const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts the CLI and resolves with its URL once it prints the listening line. */
function startCli(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  // The run's bundle of electron/demo-service/cli.ts (tests/support/node-entries.ts), not its
  // sources through tsx: the process is what the test reads, not how npm's script starts it.
  const child = spawn(process.execPath, [...nodeEntryArgs('demo-service'), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
  });
}

describe('demo service CLI: dialects', () => {
  it('speaks fal with --dialect fal, takes switches through /_demo/settings, and logs the key header', async () => {
    const { child, url } = await startCli([
      '--port',
      '0',
      '--dialect',
      'fal',
      '--key',
      'a:fal-key',
      '--control',
      '--duration',
      '0',
      '--foreign-origin',
      'http://127.0.0.2:9',
    ]);
    const key = { Authorization: 'Key fal-key' };
    const accepted = await send(`${url}/fal-ai/flux/dev`, { prompt: 'from the CLI' }, key);
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({
      status_url: expect.stringMatching(/^http:\/\/127\.0\.0\.2:9\/fal-ai\/flux\/requests\//),
    });
    const settings = await send(
      `${url}/_demo/settings`,
      { rateLimit: 1, unknownStatusPolls: 0 },
      {},
    );
    expect(settings.status).toBe(200);
    const limited = await send(`${url}/fal-ai/flux/dev`, { prompt: 'again' }, key);
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '1']);
    const log = (await call(`${url}/_demo/log`)).json as { requests: RequestLogEntry[] };
    expect(log.requests.map((entry) => [entry.method, entry.path, entry.auth])).toEqual([
      ['POST', '/fal-ai/flux/dev', { header: 'authorization', value: 'Key fal-key' }],
      ['POST', '/fal-ai/flux/dev', { header: 'authorization', value: 'Key fal-key' }],
    ]);
    child.kill('SIGTERM');
  });

  it('turns the dialect flags into options, and leaves them out when not given', () => {
    const command = parseCliArgs([
      '--dialect',
      'bfl',
      '--rate-limit',
      '2',
      '--unknown-status',
      '3',
      '--foreign-origin',
      'http://elsewhere.test:8080',
      '--max-active-tasks',
      '5',
    ]);
    expect(command).toMatchObject({
      options: {
        dialect: 'bfl',
        rateLimit: 2,
        unknownStatusPolls: 3,
        foreignOrigin: 'http://elsewhere.test:8080',
        maxActiveTasks: 5,
      },
    });
    const plain = parseCliArgs([]);
    expect(plain.kind === 'run' && Object.keys(plain.options)).not.toContain('dialect');
  });

  it.each([
    [['--dialect', 'openai'], /--dialect must be one of pictor, fal, replicate, dashscope, bfl/],
    [['--foreign-origin', 'ftp://x'], /--foreign-origin/],
    [['--foreign-origin', 'http://x/path'], /--foreign-origin/],
    [['--rate-limit', '-1'], /--rate-limit/],
    [['--max-active-tasks', '0'], /active task limit/],
  ] as [string[], RegExp][])('refuses %j', (args, message) => {
    let text = '';
    try {
      const command = parseCliArgs(args);
      if (command.kind === 'run') resolveOptions(command.options);
    } catch (error) {
      if (!(error instanceof UsageError || error instanceof DemoOptionsError)) throw error;
      text = error.message;
    }
    expect(text).toMatch(message);
  });
});
