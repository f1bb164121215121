import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RotatingFileLogger } from '../../../../electron/core/logging/rotating-file-logger';
import { secretRedactor } from '../../../../electron/core/logging/redaction';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const KEY = 'sk-live-Zq9c4R7tYw2x8Pm1Ab3dEf';
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

let dir: string;
let opened: RotatingFileLogger[] = [];

beforeEach(async () => {
  dir = await tempFolder('log');
});

afterEach(async () => {
  await Promise.all(opened.map((logger) => logger.close()));
  opened = [];
  await removeFolder(dir);
});

/** A logger closed after the test. */
function openLogger(
  options: ConstructorParameters<typeof RotatingFileLogger>[0],
): RotatingFileLogger {
  const logger = new RotatingFileLogger(options);
  opened.push(logger);
  return logger;
}

function parse(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function lines(path: string): Promise<Record<string, unknown>[]> {
  return parse(await readFile(path, 'utf8'));
}

describe('the log file', () => {
  it('writes one JSON line per entry with ISO time, level, message and fields', async () => {
    const logger = openLogger({ dir, now: () => T0 });
    logger.info('Task completed', { localId: 'a1', polls: 3, ok: true, gone: undefined });
    logger.error('Download failed');
    await logger.flush();
    expect(await lines(join(dir, 'pictor.log'))).toEqual([
      {
        time: '2026-01-15T12:00:00.000Z',
        level: 'info',
        message: 'Task completed',
        fields: { localId: 'a1', polls: 3, ok: true },
      },
      { time: '2026-01-15T12:00:00.000Z', level: 'error', message: 'Download failed' },
    ]);
  });

  it('drops lines below the minimum level (info by default)', async () => {
    const logger = openLogger({ dir });
    logger.debug('noise');
    logger.warn('kept');
    logger.setMinimumLevel('debug');
    logger.debug('now kept');
    await logger.flush();
    expect((await lines(logger.path)).map((line) => line.message)).toEqual(['kept', 'now kept']);
  });

  it('keeps the order of thousands of lines logged without waiting', async () => {
    const logger = openLogger({ dir });
    for (let i = 0; i < 3_000; i += 1) logger.info(`line ${i}`, { i });
    await logger.flush();
    const written = await lines(logger.path);
    expect(written.map((line) => (line.fields as { i: number }).i)).toEqual(
      Array.from({ length: 3_000 }, (_, i) => i),
    );
  });

  it('keeps the order when lines arrive while earlier ones are being written', async () => {
    const logger = openLogger({ dir, maxBytes: 4_000 });
    for (let i = 0; i < 120; i += 1) {
      logger.info(`line ${i}`, { i });
      if (i % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await logger.flush();
    expect(await readdir(dir)).toHaveLength(3); // two rotations happened on the way
    const written = [
      ...(await lines(logger.rotatedPath(2))),
      ...(await lines(logger.rotatedPath(1))),
      ...(await lines(logger.path)),
    ].map((line) => (line.fields as { i: number }).i);
    expect(written).toEqual(Array.from({ length: 120 }, (_, i) => i));
  });

  it('appends to the file an earlier run left', async () => {
    await writeFile(join(dir, 'pictor.log'), '{"message":"from before"}\n');
    const logger = openLogger({ dir });
    logger.info('after');
    await logger.close();
    expect((await lines(logger.path)).map((line) => line.message)).toEqual([
      'from before',
      'after',
    ]);
  });

  it('creates the logs folder when it is missing', async () => {
    const logger = openLogger({ dir: join(dir, 'a', 'logs') });
    logger.info('hello');
    await logger.flush();
    expect(await lines(join(dir, 'a', 'logs', 'pictor.log'))).toHaveLength(1);
  });

  it('close() flushes, and a later line opens the file again', async () => {
    const logger = openLogger({ dir });
    logger.info('one');
    await logger.close();
    logger.info('two');
    await logger.close();
    expect((await lines(logger.path)).map((line) => line.message)).toEqual(['one', 'two']);
  });
});

describe('rotation', () => {
  it('rotates before a file passes the size cap and keeps only `keep` old files', async () => {
    const logger = openLogger({ dir, maxBytes: 2_000, keep: 3 });
    for (let i = 0; i < 200; i += 1) logger.info(`entry ${i} ${'x'.repeat(40)}`, { i });
    await logger.flush();
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(['pictor.1.log', 'pictor.2.log', 'pictor.3.log', 'pictor.log']);
    const sizes = await Promise.all(
      files.map(async (name) => (await readFile(join(dir, name))).length),
    );
    for (const size of sizes) expect(size).toBeLessThanOrEqual(2_000);
    // Oldest to newest across the kept files: consecutive, ending with the last line.
    const ordered = [
      ...(await lines(join(dir, 'pictor.3.log'))),
      ...(await lines(join(dir, 'pictor.2.log'))),
      ...(await lines(join(dir, 'pictor.1.log'))),
      ...(await lines(join(dir, 'pictor.log'))),
    ].map((line) => (line.fields as { i: number }).i);
    const first = ordered[0]!;
    expect(first).toBeGreaterThan(0);
    expect(ordered).toEqual(Array.from({ length: 200 - first }, (_, k) => first + k));
  });

  it('rotates a file an earlier run left at the cap', async () => {
    await writeFile(join(dir, 'pictor.log'), `${'{"old":1}\n'.repeat(150)}`);
    const logger = openLogger({ dir, maxBytes: 1_500, keep: 1 });
    logger.info('fresh');
    await logger.flush();
    expect((await lines(logger.path)).map((line) => line.message)).toEqual(['fresh']);
    expect(await lines(join(dir, 'pictor.1.log'))).toHaveLength(150);
  });

  it('with keep 0 starts the file over', async () => {
    const logger = openLogger({ dir, maxBytes: 500, keep: 0 });
    for (let i = 0; i < 30; i += 1) logger.info(`entry ${i}`);
    await logger.flush();
    expect(await readdir(dir)).toEqual(['pictor.log']);
  });
});

describe('redaction', () => {
  async function written(log: (logger: RotatingFileLogger) => void): Promise<string> {
    const logger = openLogger({ dir });
    logger.setRedactor(secretRedactor([KEY]));
    log(logger);
    await logger.flush();
    return readFile(logger.path, 'utf8');
  }

  it('the key in a message, a field or an error detail never reaches the file', async () => {
    const text = await written((logger) => {
      logger.info(`Submitting with ${KEY}`);
      logger.warn('Refused', { reason: `the service echoed ${KEY} back` });
      logger.error('Request failed', { detail: `Error: 401 for key=${KEY}\n at fetch` });
      logger.error('Encoded', { url: `https://x.test/?q=${encodeURIComponent(KEY)}` });
    });
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(encodeURIComponent(KEY));
    expect(text.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(4);
    expect(parse(text)).toHaveLength(4);
  });

  it('a key with characters JSON escapes is caught too', async () => {
    const odd = 'k"ey\\with/quote';
    const logger = openLogger({ dir });
    logger.setRedactor(secretRedactor([odd]));
    logger.info(`got ${odd}`);
    await logger.flush();
    const text = await readFile(logger.path, 'utf8');
    expect(text).not.toContain(JSON.stringify(odd).slice(1, -1));
    expect(parse(text)[0]!.message).toBe('got [redacted]');
  });

  it('fields named like secrets are replaced whatever they hold', async () => {
    const text = await written((logger) =>
      logger.info('Headers', {
        apiKey: 'abc',
        Authorization: 'Bearer abc',
        refresh_token: 'r',
        password: 'p',
        clientSecret: 's',
        localId: 'kept',
      }),
    );
    expect(parse(text)[0]!.fields).toEqual({
      apiKey: '[redacted]',
      Authorization: '[redacted]',
      refresh_token: '[redacted]',
      password: '[redacted]',
      clientSecret: '[redacted]',
      localId: 'kept',
    });
  });

  it('Bearer tokens are replaced without any redactor set', async () => {
    const logger = openLogger({ dir });
    logger.warn('Sent Authorization: Bearer abc.def-123 to the server', {
      detail: 'headers {"authorization":"Bearer zzz"}',
    });
    await logger.flush();
    const text = await readFile(logger.path, 'utf8');
    expect(text).not.toMatch(/abc\.def-123|zzz/);
  });

  it('after the redactor is cleared, later lines are no longer filtered by it', async () => {
    const logger = openLogger({ dir });
    logger.setRedactor(secretRedactor(['hunter22']));
    logger.info('one hunter22');
    logger.setRedactor(null);
    logger.info('two hunter22');
    await logger.flush();
    expect((await lines(logger.path)).map((line) => line.message)).toEqual([
      'one [redacted]',
      'two hunter22',
    ]);
  });

  it('a redactor that throws costs the line, not the secret', async () => {
    const logger = openLogger({ dir });
    logger.setRedactor(() => {
      throw new Error('boom');
    });
    logger.info(`secret ${KEY}`);
    await logger.flush();
    const text = await readFile(logger.path, 'utf8');
    expect(text).not.toContain(KEY);
    expect(parse(text)[0]!.message).toBe('A log line could not be redacted.');
  });
});

describe('when the file cannot be written', () => {
  function fallbackLogger(logDir: string) {
    const stderr: string[] = [];
    const logger = openLogger({ dir: logDir, fallback: (text) => stderr.push(text) });
    return { logger, stderr };
  }

  it('a folder that cannot be created: lines go to the fallback, in order, without a throw', async () => {
    await writeFile(join(dir, 'not-a-folder'), 'x');
    const { logger, stderr } = fallbackLogger(join(dir, 'not-a-folder', 'logs'));
    logger.info('first');
    logger.info('second');
    await logger.flush();
    logger.error('third', { detail: 'Bearer abc' });
    await logger.flush();
    const entries = parse(stderr.join(''));
    expect(entries[0]).toMatchObject({ level: 'warn', fields: { reason: 'ENOTDIR' } });
    expect(entries.slice(1).map((entry) => entry.message)).toEqual(['first', 'second', 'third']);
    expect(stderr.join('')).not.toContain('Bearer abc');
  });

  it('a log file that is a folder (as a read-only file would be): the fallback takes over', async () => {
    await mkdir(join(dir, 'pictor.log'));
    const { logger, stderr } = fallbackLogger(dir);
    logger.info('hello');
    await logger.flush();
    expect(parse(stderr.join('')).map((entry) => entry.message)).toEqual([
      'Pictor cannot write its log file; log lines go to stderr from now on.',
      'hello',
    ]);
  });

  it.skipIf(process.getuid?.() === 0)('a read-only folder', async () => {
    const { chmod } = await import('node:fs/promises');
    const readOnly = join(dir, 'ro');
    await mkdir(readOnly, { mode: 0o500 });
    await chmod(readOnly, 0o500);
    const { logger, stderr } = fallbackLogger(readOnly);
    logger.info('hello');
    await logger.flush();
    expect(stderr.join('')).toContain('"hello"');
    await chmod(readOnly, 0o700);
  });
});
