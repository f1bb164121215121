/**
 * The keys the Linux `pictor` wrapper hands the binary through a pipe (electron/cli/key-pipe.ts):
 * NAME NUL VALUE NUL records read from the descriptor PICTOR_KEYS_FD names, on real pipes and real
 * files. Values keep their spaces, quotes, newlines and `=`; a descriptor that is not a pipe (a
 * file, a link to one, /dev/null, a closed one) is refused before a byte is read, and a malformed
 * payload is refused with a sentence that quotes none of it.
 *
 * Named `*.process.test.*`: whether a descriptor number is open is a question about the whole
 * process's descriptor table, and in a worker thread another file's open takes a number this one
 * just closed (a fresh clone's run read a closed pipe's number as open: vitest.config.ts).
 */
import { closeSync, fstatSync, openSync, readSync, symlinkSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  dropKeyPipe,
  KEY_PIPE_VARIABLE,
  KeyPipeError,
  takeKeyPipe,
} from '../../../electron/cli/key-pipe';
import { pipeHolding } from '../../support/key-pipe-fd';
import { fifoMaker, needing } from '../../support/tools';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

const MKFIFO = fifoMaker();
const KEY = 'sk-pipe-Zq8vT3mN0pLx4wQ7';

/** NAME NUL VALUE NUL records. */
const records = (entries: [string, string][]): string =>
  entries.map(([name, value]) => `${name}\0${value}\0`).join('');

/** What `fd` is open on: its device and inode. */
function identity(fd: number): string {
  const stat = fstatSync(fd);
  return `${stat.dev}:${stat.ino}`;
}

/**
 * Whether `fd` is still open on what it was open on (`was`, from identity()). The number alone
 * would not do even in a process of its own: an open on libuv's threads (the runner's own file
 * work) may take a number the moment it is closed.
 */
function stillOpen(fd: number, was: string): boolean {
  try {
    return identity(fd) === was;
  } catch {
    return false;
  }
}

/** What takeKeyPipe threw for `marker`, and the environment it left. */
function refusal(marker: string): { error: unknown; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { [KEY_PIPE_VARIABLE]: marker, PATH: '/bin' };
  try {
    takeKeyPipe(env);
  } catch (error) {
    return { error, env };
  }
  return { error: null, env };
}

describe('no pipe', () => {
  it('takes nothing when PICTOR_KEYS_FD is not set', () => {
    const env = { PATH: '/bin', SERVICE_API_KEY: KEY };
    expect(takeKeyPipe(env)).toEqual({});
    expect(env).toEqual({ PATH: '/bin', SERVICE_API_KEY: KEY });
  });

  it.each(['0', '1', '2', '', 'x', '-3', '3x', ' 3', '03', '1e3', '99999999'])(
    'refuses PICTOR_KEYS_FD=%j, reading nothing (not stdin)',
    (marker) => {
      const { error, env } = refusal(marker);
      expect(error).toBeInstanceOf(KeyPipeError);
      expect((error as Error).message).toMatch(/PICTOR_KEYS_FD is not a descriptor above 2/);
      expect(env).toEqual({ PATH: '/bin' });
    },
  );
});

describe.skipIf(!MKFIFO.path)(needing(MKFIFO, 'a pipe'), () => {
  const take = (payload: Buffer | string) => {
    const fd = pipeHolding(MKFIFO, payload);
    const pipe = identity(fd);
    const env: NodeJS.ProcessEnv = { [KEY_PIPE_VARIABLE]: String(fd), PATH: '/bin' };
    try {
      return { keys: takeKeyPipe(env), env, fd, pipe };
    } catch (error) {
      return { error, env, fd, pipe };
    }
  };

  it('gives each key by name, every character of its value kept, then closes it', () => {
    const values: [string, string][] = [
      ['SERVICE_API_KEY', KEY],
      ['PICTOR_KEY_FAL', 'a b\tc\nd=e "q" \'s\' $HOME `id` \\ ✓'],
      ['PICTOR_KEY_BFL', '=\n=\n'],
      ['PICTOR_KEY_EMPTY', ''],
      ['PICTOR_KEY_lower_9', ' padded '],
    ];
    const { keys, env, fd, pipe, error } = take(records(values));
    expect(error).toBeUndefined();
    expect(keys).toEqual(Object.fromEntries(values));
    expect(env).toEqual({ PATH: '/bin' });
    expect(stillOpen(fd, pipe)).toBe(false);
  });

  it('takes an empty pipe as no keys', () => {
    const { keys, fd, pipe } = take('');
    expect(keys).toEqual({});
    expect(stillOpen(fd, pipe)).toBe(false);
  });

  const malformed: [string, Buffer | string, RegExp][] = [
    ['a last record cut short', `SERVICE_API_KEY\0${KEY}`, /last record is cut short/],
    ['a name with no value', `PICTOR_KEY_FAL\0${KEY}\0SERVICE_API_KEY\0`, /a name has no value/],
    ['a variable that holds no key', records([['PATH', KEY]]), /record 1 names no key variable/],
    ['a name a shell cannot set', records([['PICTOR_KEY_A=B', KEY]]), /record 1 names no key/],
    ['a name with a newline', records([['PICTOR_KEY_A\nB', KEY]]), /record 1 names no key/],
    ['an empty name', records([['', KEY]]), /record 1 names no key variable/],
    [
      'a key named twice',
      records([
        ['SERVICE_API_KEY', 'one'],
        ['SERVICE_API_KEY', KEY],
      ]),
      /record 2 names a key twice/,
    ],
    [
      'more than every key together',
      records([['SERVICE_API_KEY', KEY.repeat(1500)]]),
      /more than 32768 bytes/,
    ],
  ];

  it.each(malformed)('refuses %s, quoting none of it, and closes it', (_what, payload, why) => {
    const { error, fd, pipe } = take(payload);
    expect(error).toBeInstanceOf(KeyPipeError);
    const message = (error as Error).message;
    expect(message).toMatch(/^The keys handed over by the pictor command cannot be read: /);
    expect(message).toMatch(why);
    expect(message).not.toContain(KEY.slice(0, 8));
    expect(message).not.toContain('PICTOR_KEY_');
    expect(stillOpen(fd, pipe)).toBe(false);
  });
});

describe('a descriptor that is not a pipe', () => {
  const dir = tempFolderSync('key-pipe-not');
  afterAll(() => removeFolderSync(dir));
  const file = path.join(dir, 'keys');
  writeFileSync(file, records([['SERVICE_API_KEY', KEY]]));
  const link = path.join(dir, 'link');
  symlinkSync(file, link);

  /** Opens `target`, offers it as the pipe; whether it was refused with nothing read. */
  function refusedUnread(target: string): void {
    const fd = openSync(target, 'r');
    try {
      const { error } = refusal(String(fd));
      expect(error).toBeInstanceOf(KeyPipeError);
      expect((error as Error).message).toMatch(new RegExp(`descriptor ${fd} is not a pipe`));
      // Still open, at its first byte: nothing was read from it.
      const first = Buffer.alloc(15);
      const read = readSync(fd, first, 0, first.length, null);
      if (target !== '/dev/null')
        expect(first.subarray(0, read).toString()).toBe('SERVICE_API_KEY');
    } finally {
      closeSync(fd);
    }
  }

  it('refuses a regular file', () => refusedUnread(file));
  it('refuses a link to a regular file', () => refusedUnread(link));
  it.skipIf(process.platform === 'win32')('refuses /dev/null (a device)', () =>
    refusedUnread('/dev/null'),
  );

  it('refuses a closed descriptor', () => {
    const fd = openSync(file, 'r');
    closeSync(fd);
    const { error } = refusal(String(fd));
    expect(error).toBeInstanceOf(KeyPipeError);
    expect((error as Error).message).toMatch(/is not open/);
  });
});

describe('the desktop app the wrapper started', () => {
  it.skipIf(!MKFIFO.path)(needing(MKFIFO, 'closes the pipe unread'), () => {
    const fd = pipeHolding(MKFIFO, `SERVICE_API_KEY\0${KEY}\0`);
    const pipe = identity(fd);
    const env: NodeJS.ProcessEnv = { [KEY_PIPE_VARIABLE]: String(fd), PATH: '/bin' };
    dropKeyPipe(env);
    expect(stillOpen(fd, pipe)).toBe(false);
    expect(env).toEqual({ PATH: '/bin' });
  });

  it('takes out a PICTOR_KEYS_FD that names no pipe, leaving the descriptor alone', () => {
    const fd = openSync('/dev/null', 'r');
    const device = identity(fd);
    try {
      for (const marker of [String(fd), '0', 'x']) {
        const env: NodeJS.ProcessEnv = { [KEY_PIPE_VARIABLE]: marker };
        dropKeyPipe(env);
        expect(env).toEqual({});
      }
      expect(stillOpen(fd, device)).toBe(true);
    } finally {
      closeSync(fd);
    }
  });
});
