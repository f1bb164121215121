/**
 * The CLI's built-in demo (`--provider demo`): the demo's key goes to the demo this command runs
 * and nowhere else, SERVICE_API_KEY is not even read, and every line the CLI prints about a demo
 * task resumes it on the demo.
 */
import { describe, expect, it } from 'vitest';
import { listLine } from '../../../electron/cli/cli-report';
import { problemLine, resumeAllCommand, resumeLineFor } from '../../../electron/cli/resume-lines';
import { EnvCredentials } from '../../../electron/cli/env-credentials';
import { credentialsForRecord } from '../../../electron/core/credentials/record-credentials';
import { keyFingerprint } from '../../../shared/domain/fingerprint';
import { makeTaskRecord } from '../../support/task-records';

const KEY = 'sk-demo-run-0123456789abcdef';
const WHERE = { dataDir: '/d', galleryDir: '/g', platform: 'linux' as const, program: 'pictor' };

/** The command's demo of today's contract (`demo:`): not running until `url` is set. */
function demoAt(url: string | null = null) {
  return {
    current: url,
    urlOf(endpoint: string): string | null {
      return endpoint === 'demo:' ? this.current : null;
    },
  };
}

describe('EnvCredentials on the built-in demo', () => {
  it('sends the demo’s key to the demo this command runs, once it runs, and nothing else anywhere', async () => {
    const demo = demoAt();
    const credentials = await EnvCredentials.create({ SERVICE_API_KEY: KEY }, null, 'pictor', demo);
    expect(credentials.hasKey).toBe(false);
    expect(credentials.namedBaseUrl).toBeNull();
    expect(credentials.currentEndpoint()).toBe('demo:');
    expect(await credentials.credentialsFor('demo:')).toBeNull();
    expect(credentials.baseUrlFor('demo:')).toBeNull();
    demo.current = 'http://127.0.0.1:40123';
    expect(await credentials.credentialsFor('demo:')).toEqual({
      baseUrl: 'http://127.0.0.1:40123',
      key: 'demo',
      keyFingerprint: await keyFingerprint('demo'),
      provider: 'pictor',
    });
    expect(credentials.baseUrlFor('demo:')).toBe('http://127.0.0.1:40123');
    // A dialect this command runs no demo of: nothing, and no real key either.
    expect(await credentials.credentialsFor('demo:fal')).toBeNull();
    expect(credentials.baseUrlFor('demo:fal')).toBeNull();
    // SERVICE_API_KEY goes nowhere: not to the demo's own address, not to any other.
    for (const endpoint of [
      'http://127.0.0.1:40123',
      'https://api.example.com',
      'https://queue.fal.run',
    ]) {
      expect(await credentials.credentialsFor(endpoint), endpoint).toBeNull();
    }
  });

  it('gives the demo of each dialect it runs the demo’s key, with that dialect’s provider', async () => {
    const urls = new Map([
      ['demo:', 'http://127.0.0.1:40123'],
      ['demo:bfl', 'http://127.0.0.1:40124'],
    ]);
    const demo = { urlOf: (endpoint: string) => urls.get(endpoint) ?? null };
    const credentials = await EnvCredentials.create({ SERVICE_API_KEY: KEY }, null, 'pictor', demo);
    expect(await credentials.credentialsFor('demo:bfl')).toEqual({
      baseUrl: 'http://127.0.0.1:40124',
      key: 'demo',
      keyFingerprint: await keyFingerprint('demo'),
      provider: 'bfl',
    });
    // Not a dialect: never read as an address, never given a key.
    for (const endpoint of ['demo:flux', 'demo:fal/x', 'demo::']) {
      expect(await credentials.credentialsFor(endpoint), endpoint).toBeNull();
    }
    const waits = await credentialsForRecord(
      credentials,
      makeTaskRecord({ endpoint: 'demo:fal', provider: 'fal' }),
    );
    expect(waits.ok).toBe(false);
    if (!waits.ok) expect(waits.error.message).toContain('--provider demo');
  });

  it('gives a demo task the demo’s key, and a task of any other service a sentence', async () => {
    const credentials = await EnvCredentials.create(
      { SERVICE_API_KEY: KEY },
      null,
      'pictor',
      demoAt('http://127.0.0.1:40123'),
    );
    const demoTask = makeTaskRecord({ endpoint: 'demo:' });
    expect(await credentialsForRecord(credentials, demoTask)).toMatchObject({
      ok: true,
      credentials: { key: 'demo' },
    });
    const falTask = makeTaskRecord({ endpoint: 'https://queue.fal.run', provider: 'fal' });
    const waits = await credentialsForRecord(credentials, falTask);
    expect(waits.ok).toBe(false);
    if (waits.ok) return;
    expect(waits.error.message).toBe(
      "This task lives on another service, and this command runs the built-in demo service (--provider demo), which sends no key anywhere. Resume it with its --provider, its service's address after --base-url, typed by you, and SERVICE_API_KEY set to a key of that service.",
    );
    expect(waits.error.message).not.toContain(KEY);
    // An imported demo task is never contacted, the demo running or not.
    const imported = makeTaskRecord({ endpoint: 'demo:', imported: true });
    expect((await credentialsForRecord(credentials, imported)).ok).toBe(false);
  });

  it('says a demo task resumes with --provider demo when the command runs no demo', async () => {
    const credentials = await EnvCredentials.create(
      { SERVICE_API_KEY: KEY },
      'https://api.example.com',
    );
    expect(await credentials.credentialsFor('demo:')).toBeNull();
    expect(credentials.missingKeyReason('demo:')).toBe(
      "This task was made on Pictor's built-in demo service. Resume it with --provider demo, which runs that service inside the command (no key needed).",
    );
  });
});

describe('lines the CLI prints about demo tasks', () => {
  const demoTask = makeTaskRecord({
    taskId: 'task_abc',
    endpoint: 'demo:',
    status: 'processing',
    hold: 'timed_out',
  });

  it('resume a demo task with --provider demo and no address, whatever service the run named', () => {
    const runs = [
      { ...WHERE, namedBaseUrl: null, builtInDemo: true },
      { ...WHERE, namedBaseUrl: 'https://api.example.com' },
      {
        ...WHERE,
        namedBaseUrl: 'https://queue.fal.run',
        provider: 'fal' as const,
        baseUrlTyped: false,
      },
      { ...WHERE, namedBaseUrl: null },
    ];
    for (const where of runs) {
      const line = resumeLineFor(demoTask, where);
      expect(line.command).toBe(
        "pictor resume task_abc --provider demo --data-dir '/d' --gallery-dir '/g'",
      );
      expect(line.serviceNamed).toBe(true);
      expect(problemLine(demoTask, line)).toBe(
        "Task task_abc is still processing; Pictor stopped watching it (watch timeout). The id is kept. Resume with: pictor resume task_abc --provider demo --data-dir '/d' --gallery-dir '/g'",
      );
    }
  });

  it('say why a demo task waits in a run without the demo, and how to resume it', () => {
    const waiting = makeTaskRecord({
      taskId: 'task_abc',
      endpoint: 'demo:',
      status: 'processing',
      hold: 'awaiting_key',
      error: {
        kind: 'auth',
        message:
          "This task was made on Pictor's built-in demo service. Resume it with --provider demo, which runs that service inside the command (no key needed).",
      },
    });
    const line = problemLine(
      waiting,
      resumeLineFor(waiting, { ...WHERE, namedBaseUrl: 'https://api.example.com' }),
    );
    expect(line).toMatch(
      /^Task task_abc is waiting: This task was made on Pictor's built-in demo service\. Resume it with --provider demo/,
    );
    expect(line).not.toMatch(/key of the account/);
    expect(line).toMatch(/Resume with: pictor resume task_abc --provider demo /);
  });

  it('continue a demo run after Ctrl+C on the demo', () => {
    expect(resumeAllCommand({ ...WHERE, namedBaseUrl: null, builtInDemo: true })).toBe(
      "pictor resume --all --provider demo --data-dir '/d' --gallery-dir '/g'",
    );
  });

  it('list a demo task as the demo’s', () => {
    expect(listLine(makeTaskRecord({ endpoint: 'demo:' }))).toMatch(
      /^\S+ \S+ {2}demo {6}completed/,
    );
    expect(listLine(makeTaskRecord({ endpoint: 'http://127.0.0.1:9' }))).toMatch(
      /^\S+ \S+ {2}pictor {4}completed/,
    );
  });
});
