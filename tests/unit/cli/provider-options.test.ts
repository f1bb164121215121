/**
 * --provider on the command line: which service a command talks to, where the key goes, and what
 * the lines the CLI prints say about it.
 */
import { describe, expect, it } from 'vitest';
import { helpText, parseCommand } from '../../support/cli-table';
import { exitCodeOf, jsonLine, listLine } from '../../../electron/cli/cli-report';
import { problemLine, resumeAllCommand, resumeLineFor } from '../../../electron/cli/resume-lines';
import { EnvCredentials } from '../../../electron/cli/env-credentials';
import { UsageError } from '../../../electron/core/command-line/command-line';
import { credentialsForRecord } from '../../../electron/core/credentials/record-credentials';
import { PROVIDER_IDS } from '../../../shared/domain/providers';
import { sentence } from '../../../shared/i18n/sentence';
import { makeTaskRecord } from '../../support/task-records';

const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/home/u/.config' };
const KEY = 'sk-provider-test-0123456789';
const WHERE = { dataDir: '/d', galleryDir: '/g', platform: 'linux' as const };

function usageError(argv: string[]): string {
  try {
    parseCommand(argv, env);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`${argv.join(' ')} parsed`);
}

describe('--provider', () => {
  it('defaults to pictor, which still needs --base-url to generate', () => {
    const command = parseCommand(['generate', '--base-url', 'https://x', '--prompt', 'p'], env);
    expect(command).toMatchObject({
      service: { provider: 'pictor', baseUrl: 'https://x', baseUrlTyped: true },
    });
    expect(command.name === 'generate' && command.model).toBeUndefined();
    expect(usageError(['generate', '--prompt', 'p'])).toMatch(/--base-url/);
    expect(parseCommand(['resume', '--all'], env)).toMatchObject({
      service: { provider: 'pictor', baseUrl: null },
    });
  });

  it("uses the provider's own address and default model unless told otherwise", () => {
    expect(parseCommand(['generate', '--provider', 'fal', '--prompt', 'p'], env)).toMatchObject({
      service: { provider: 'fal', baseUrl: 'https://queue.fal.run', baseUrlTyped: false },
      model: 'fal-ai/flux/schnell',
    });
    const own = parseCommand(
      ['generate', '--provider', 'bfl', '--base-url', 'http://127.0.0.1:9', '--prompt', 'p'],
      env,
    );
    expect(own).toMatchObject({
      service: { provider: 'bfl', baseUrl: 'http://127.0.0.1:9', baseUrlTyped: true },
      model: 'flux-pro-1.1',
    });
    const chosen = parseCommand(
      ['generate', '--provider', 'replicate', '--prompt', 'p', '--model', 'a/b'],
      env,
    );
    expect(chosen).toMatchObject({ model: 'a/b' });
    expect(parseCommand(['track', 't', '--provider', 'dashscope'], env)).toMatchObject({
      service: { provider: 'dashscope', baseUrl: 'https://dashscope.aliyuncs.com' },
    });
    expect(parseCommand(['list', '--provider', 'fal'], env)).toMatchObject({ provider: 'fal' });
    expect(parseCommand(['list'], env)).toMatchObject({ provider: null });
  });

  it('refuses an unknown id with the list of ids, never repeating what was typed', () => {
    for (const command of [['generate', '--prompt', 'p'], ['resume', 'x'], ['list'], ['costs']]) {
      const message = usageError([...command, '--provider', 'sk-pasted-key']);
      expect(message).toBe(
        `--provider takes one of: ${PROVIDER_IDS.join(', ')}, or demo (Pictor's built-in demo service).`,
      );
    }
    for (const command of [
      ['track', 'x'],
      ['cancel', 'x'],
      ['caps', 'list'],
    ]) {
      const message = usageError([...command, '--provider', 'sk-pasted-key']);
      expect(message).toBe(`--provider takes one of: ${PROVIDER_IDS.join(', ')}.`);
    }
  });

  it('is in the help of the commands that talk to a service', () => {
    const help = helpText('pictor', 'generate');
    for (const id of PROVIDER_IDS) expect(help).toMatch(new RegExp(`^  ${id} `, 'm'));
    expect(help).toContain('https://queue.fal.run');
    expect(helpText('pictor', 'export')).not.toContain('Providers (');
  });
});

describe('EnvCredentials with a provider', () => {
  it('binds the key to (provider, base URL): a task of another provider never gets it', async () => {
    const cli = await EnvCredentials.create({ SERVICE_API_KEY: KEY }, 'https://api.bfl.ai', 'bfl');
    expect(await cli.credentialsFor('https://api.bfl.ai')).toMatchObject({
      key: KEY,
      provider: 'bfl',
    });
    expect(await cli.credentialsFor('https://api.us1.bfl.ai')).toBeNull();
    const ofBfl = makeTaskRecord({ endpoint: 'https://api.bfl.ai', provider: 'bfl' });
    const ofFal = makeTaskRecord({ endpoint: 'https://api.bfl.ai', provider: 'fal' });
    expect(await credentialsForRecord(cli, ofBfl)).toMatchObject({ ok: true });
    expect(await credentialsForRecord(cli, ofFal)).toMatchObject({
      ok: false,
      error: { sentence: { key: 'error.service.wrongProviderKey' } },
    });
  });
});

describe('lines the CLI prints for a provider', () => {
  const falTask = makeTaskRecord({
    taskId: 'req-1',
    endpoint: 'https://queue.fal.run',
    provider: 'fal',
    status: 'processing',
  });

  it('resume lines carry --provider, and --base-url only when it was typed or is needed', () => {
    const typed = { ...WHERE, namedBaseUrl: 'https://queue.fal.run', provider: 'fal' as const };
    expect(resumeLineFor(falTask, typed).command).toBe(
      "npm run -s cli -- resume req-1 --provider fal --base-url https://queue.fal.run --data-dir '/d' --gallery-dir '/g'",
    );
    const own = { ...typed, baseUrlTyped: false };
    expect(resumeLineFor(falTask, own).command).toBe(
      "npm run -s cli -- resume req-1 --provider fal --data-dir '/d' --gallery-dir '/g'",
    );
    expect(resumeAllCommand(own)).toBe(
      "npm run -s cli -- resume --all --provider fal --data-dir '/d' --gallery-dir '/g'",
    );
    // Not on the named service: neither the address nor the provider (its own address would
    // get a key the user gave for another service); the sentence names the option instead.
    const elsewhere = {
      ...WHERE,
      namedBaseUrl: 'https://gateway.example',
      provider: 'pictor' as const,
    };
    const line = resumeLineFor(falTask, elsewhere);
    expect(line.command).not.toContain('--provider');
    expect(problemLine(falTask, line)).toMatch(/gave; add --provider fal too\): npm run/);
  });

  it('names --provider when the key was given for another kind of service', () => {
    const waiting = makeTaskRecord({
      ...falTask,
      hold: 'awaiting_key',
      error: {
        kind: 'config',
        message: 'x',
        sentence: sentence('error.service.wrongProviderKey'),
      },
    });
    const where = { ...WHERE, namedBaseUrl: 'https://queue.fal.run', provider: 'pictor' as const };
    expect(problemLine(waiting, resumeLineFor(waiting, where))).toMatch(
      /is a task of fal\.ai \(--provider fal\), but SERVICE_API_KEY was given for .* \(--provider pictor\).*resume it with --provider fal/,
    );
  });

  it('says a moderated or canceled task was stopped by the service, and exits 1', () => {
    for (const [kind, said] of [
      ['moderated', /was stopped by the content rules of fal\.ai \(moderated\): nope/],
      ['canceled', /was canceled on fal\.ai: gone/],
    ] as const) {
      const ended = makeTaskRecord({
        ...falTask,
        status: 'failed',
        error: { kind, message: kind === 'moderated' ? 'nope' : 'gone' },
      });
      expect(exitCodeOf(ended)).toBe(1);
      expect(problemLine(ended, resumeLineFor(ended, { ...WHERE, namedBaseUrl: null }))).toMatch(
        said,
      );
      expect(listLine(ended)).toMatch(new RegExp(`fal +failed \\(${kind}\\)`));
      expect(JSON.parse(jsonLine(ended, (path) => path))).toMatchObject({
        provider: 'fal',
        errorKind: kind,
        exitCode: 1,
      });
    }
  });

  it('shows a record without a provider as pictor', () => {
    const old = makeTaskRecord({});
    expect(JSON.parse(jsonLine(old, (path) => path))).toMatchObject({ provider: 'pictor' });
    expect(listLine(old)).toMatch(/^\S+ \S+ {2}pictor {4}/);
  });
});
