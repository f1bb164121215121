import { describe, expect, it } from 'vitest';
import { helpText, parseCommand } from '../../support/cli-table';
import { UsageError } from '../../../electron/core/command-line/command-line';
import { cliWording, exitCodeOf, worstExitCode } from '../../../electron/cli/cli-report';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { makeTaskRecord } from '../../support/task-records';

const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/home/u/.config' };

function record(overrides: Partial<TaskRecord>): TaskRecord {
  return makeTaskRecord(
    {
      localId: 'l',
      taskId: 't',
      endpoint: 'https://x',
      account: 'a',
      request: { prompt: 'p' },
      finishedAt: 0,
      lastPolledAt: 0,
      folder: 'f',
      images: [{ index: 0, url: 'https://x/1.png', state: 'saved', attempts: 1, favourite: false }],
      ...overrides,
    },
    0,
  );
}

describe('CLI arguments', () => {
  it('parses generate with defaults for folders, timeout and poll interval', () => {
    const command = parseCommand(
      ['generate', '--base-url', 'https://x', '--prompt', 'p', '--count', '2'],
      env,
    );
    expect(command).toMatchObject({
      name: 'generate',
      count: 2,
      common: {
        dataDir: '/home/u/.config/Pictor',
        timeoutMs: 900_000,
        pollIntervalMs: 3_000,
        json: false,
      },
    });
  });

  it('--board of generate and demo is the board’s path as the core stores it', () => {
    const into = parseCommand(
      ['generate', '--base-url', 'https://x', '--prompt', 'p', '--board', ' Clients / Acme '],
      env,
    );
    expect(into).toMatchObject({ name: 'generate', board: 'Clients/Acme' });
    expect(parseCommand(['demo', '--board', 'Picks'], env)).toMatchObject({ board: 'Picks' });
    expect(parseCommand(['generate', '--base-url', 'https://x', 'p'], env)).not.toHaveProperty(
      'board',
    );
  });

  it.each([
    ['Clients//Acme', 'A board name cannot be empty.'],
    ['a/b/c/d/e/f', 'Boards can be nested at most 5 levels deep.'],
    ['Cli\u0007ents', 'A board name cannot contain the character U+0007.'],
  ])('refuses --board %j with the sentence of its rule', (path, said) => {
    const argv = ['generate', '--base-url', 'https://x', '--prompt', 'p', '--board', path];
    expect(() => parseCommand(argv, env)).toThrow(UsageError);
    expect(() => parseCommand(argv, env)).toThrow(said);
  });

  it('puts the gallery inside --data-dir unless --gallery-dir is given', () => {
    const a = parseCommand(['list', '--data-dir', '/d'], env);
    const b = parseCommand(['list', '--data-dir', '/d', '--gallery-dir', '/g'], env);
    expect(a.name === 'list' && a.common.galleryDir).toBe('/d/gallery');
    expect(b.name === 'list' && b.common.galleryDir).toBe('/g');
  });

  it.each([
    [['generate', '--prompt', 'p'], /--base-url/],
    [['generate', '--base-url', 'https://x'], /--prompt/],
    [['generate', '--base-url', 'https://x', '--prompt', 'p', '--size', '12'], /1024x1024/],
    [['generate', '--base-url', 'https://x', '--prompt', 'p', '--count', '0'], /--count/],
    [['resume'], /task id, or --all/],
    [['frobnicate'], /Unknown command/],
    [['list', '--timeout', '-1'], /--timeout/],
    [['list', '--nope'], /^Unknown option\.$/],
    [['generate', '--base-url', 'https://x', '--promt', 'p'], /Did you mean --prompt\?/],
    [['list', '--data-dri', '/d'], /Did you mean --data-dir\?/],
    [['list', '--json=yes'], /--json takes no value/],
    [['generate', '--base-url'], /--base-url needs a value/],
  ])('refuses %j with a sentence', (argv, message) => {
    expect(() => parseCommand(argv, env)).toThrow(UsageError);
    expect(() => parseCommand(argv, env)).toThrow(message);
  });

  it('never repeats a stray argument or an unknown option (it may be a key)', () => {
    for (const argv of [
      ['generate', '--base-url', 'https://x', '--prompt', 'p', 'sk-live-secret'],
      ['resume', 'task-1', 'sk-live-secret'],
      ['list', '--sk-live-secret'],
      ['list', '--sk-live-secret=1'],
    ]) {
      let message = '';
      try {
        parseCommand(argv, env);
      } catch (error) {
        message = error instanceof UsageError ? error.message : 'not a usage error';
      }
      expect(message, argv.join(' ')).not.toBe('');
      expect(message, argv.join(' ')).not.toMatch(/secret|live/);
    }
  });

  it('answers --help and help with the help of the command named, if any', () => {
    expect(parseCommand(['generate', '--help'], env)).toEqual({ name: 'help', topic: 'generate' });
    expect(parseCommand(['help', 'list'], env)).toEqual({ name: 'help', topic: 'list' });
    expect(parseCommand(['--help'], env)).toEqual({ name: 'help' });
    expect(parseCommand(['help', 'frobnicate'], env)).toEqual({ name: 'help' });
    const generate = helpText('pictor', 'generate');
    expect(generate).toContain('Usage: pictor generate [options]');
    expect(generate).toContain('--count N');
    expect(generate).toContain('--data-dir DIR');
    expect(generate).not.toContain('rebuild');
    expect(helpText('pictor')).toContain('rebuild');
  });
});

describe('CLI report', () => {
  it('maps each outcome to its exit code and takes the highest', () => {
    expect(exitCodeOf(record({}))).toBe(0);
    expect(exitCodeOf(record({ images: [] }))).toBe(4);
    expect(
      exitCodeOf(
        record({
          images: [{ index: 0, url: null, state: 'expired', attempts: 1, favourite: false }],
        }),
      ),
    ).toBe(4);
    expect(exitCodeOf(record({ status: 'failed' }))).toBe(1);
    expect(exitCodeOf(record({ status: 'not_found' }))).toBe(1);
    // 2 is a usage error only: a refusal and an unknown outcome have codes of their own.
    expect(exitCodeOf(record({ status: 'submit_failed' }))).toBe(6);
    expect(exitCodeOf(record({ status: 'submit_unknown' }))).toBe(7);
    expect(exitCodeOf(record({ status: 'processing', hold: 'timed_out' }))).toBe(3);
    expect(
      worstExitCode([record({}), record({ status: 'processing' }), record({ status: 'failed' })]),
    ).toBe(3);
  });

  it('points the app’s advice at the environment and flags', () => {
    expect(cliWording('The service refused the API key (401). Check the key in Settings.')).toBe(
      'The service refused the API key (401). Check SERVICE_API_KEY.',
    );
    expect(cliWording('No API key is set. Add one in Settings, then try again.')).toBe(
      'No API key is set. Set SERVICE_API_KEY, then try again.',
    );
    expect(cliWording('Not found (404). Check the service URL in Settings.')).toBe(
      'Not found (404). Check --base-url.',
    );
    expect(cliWording('Anything else in Settings.')).toBe('Anything else.');
    // A cap's sentence names the window's menu; the CLI names its command instead.
    expect(
      cliWording(
        'Set a price in USD for Black Forest Labs in Settings › Costs, then submit again.',
      ),
    ).toBe('Set a price in USD for Black Forest Labs with the prices command, then submit again.');
  });
});
