/**
 * The memory of uploads that stay usable a while (DashScope's 48 h): reused while more than an hour
 * remains, named by the account's key fingerprint (nothing derived from the key is written), a
 * damaged file a memory lost. Damage includes what a crafted data folder can put in the file's
 * place: a file past the size limit (not read whole), a link to a file elsewhere (not followed), a
 * FIFO (not waited on); and a write of long links stays under the limit, so it is read back.
 */
import { lstat, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_UPLOAD_MEMORY_BYTES,
  UPLOAD_MEMORY_FILE,
  UploadMemory,
} from '../../../../electron/core/inputs/upload-memory';
import { fifoMaker, makeFifo, needing } from '../../../support/tools';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const FIFO = fifoMaker();
const HOUR = 3_600_000;
const SHA = 'a'.repeat(64);
let dir: string;
let now: number;
let memory: UploadMemory;

beforeEach(async () => {
  dir = await tempFolder('upload-memory');
  now = 1_000_000;
  memory = new UploadMemory(dir, () => now);
});
afterEach(() => removeFolder(dir));

const upload = {
  endpoint: 'https://dashscope.test/api/v1/uploads',
  account: 'fp-alice',
  sha256: SHA,
};

describe('the upload memory', () => {
  it('gives a link back while more than an hour of it remains, then not', async () => {
    await memory.remember(upload, 'oss://dir/a.png', now + 48 * HOUR);
    now += 46 * HOUR;
    expect(await memory.recall(upload)).toBe('oss://dir/a.png');
    now += 1.5 * HOUR;
    expect(await memory.recall(upload)).toBeNull();
  });

  it('keeps a link to its account, endpoint and image', async () => {
    await memory.remember(upload, 'oss://dir/a.png', now + 48 * HOUR);
    expect(await memory.recall({ ...upload, account: 'fp-bob' })).toBeNull();
    expect(await memory.recall({ ...upload, endpoint: 'https://other.test/u' })).toBeNull();
    expect(await memory.recall({ ...upload, sha256: 'b'.repeat(64) })).toBeNull();
  });

  it('writes a private file holding ids and links only', async () => {
    await memory.remember(upload, 'oss://dir/a.png', now + 48 * HOUR);
    const path = join(dir, UPLOAD_MEMORY_FILE);
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('fp-alice');
    expect(text).not.toContain(upload.endpoint);
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o077).toBe(0);
  });

  it('reads a damaged file as nothing remembered', async () => {
    await writeFile(join(dir, UPLOAD_MEMORY_FILE), '{"version":1,"entries":[{"id":"x"}]}');
    expect(await memory.recall(upload)).toBeNull();
    await writeFile(join(dir, UPLOAD_MEMORY_FILE), 'not json');
    expect(await memory.recall(upload)).toBeNull();
  });

  it('reads a file past its size limit as nothing remembered, not whole, and writes a fitting one', async () => {
    await memory.remember(upload, 'oss://dir/a.png', now + 48 * HOUR);
    const path = join(dir, UPLOAD_MEMORY_FILE);
    const written = await readFile(path, 'utf8');
    // Still valid JSON, padded with spaces: only its size makes it damage.
    await writeFile(path, written.padEnd(MAX_UPLOAD_MEMORY_BYTES, ' '));
    expect(await memory.recall(upload)).toBe('oss://dir/a.png');
    await writeFile(path, written.padEnd(MAX_UPLOAD_MEMORY_BYTES + 1, ' '));
    expect(await memory.recall(upload)).toBeNull();
    const other = { ...upload, sha256: 'b'.repeat(64) };
    await memory.remember(other, 'oss://dir/b.png', now + 48 * HOUR);
    expect((await stat(path)).size).toBeLessThan(MAX_UPLOAD_MEMORY_BYTES);
    expect(await memory.recall(other)).toBe('oss://dir/b.png');
  });

  it('does not follow a link put in the file’s place, and writes its own file there, not through it', async () => {
    const outside = await tempFolder('upload-memory-outside');
    try {
      // A memory elsewhere that would give the link back if it were read.
      await new UploadMemory(outside, () => now).remember(upload, 'oss://x/y.png', now + 48 * HOUR);
      const target = join(outside, UPLOAD_MEMORY_FILE);
      const before = await readFile(target, 'utf8');
      const path = join(dir, UPLOAD_MEMORY_FILE);
      await symlink(target, path);
      expect(await memory.recall(upload)).toBeNull();
      await memory.remember(upload, 'oss://dir/a.png', now + 48 * HOUR);
      expect((await lstat(path)).isFile()).toBe(true);
      expect(await readFile(target, 'utf8')).toBe(before);
      expect(await memory.recall(upload)).toBe('oss://dir/a.png');
    } finally {
      await removeFolder(outside);
    }
  });

  it.skipIf(!FIFO.path)(
    needing(FIFO, 'reads a FIFO put in the file’s place as nothing remembered, without waiting'),
    async () => {
      // Read as a file, a FIFO with no writer waits for ever: the test's own time limit ends it.
      const path = join(dir, UPLOAD_MEMORY_FILE);
      makeFifo(FIFO, path);
      expect(await memory.recall(upload)).toBeNull();
      await memory.remember(upload, 'oss://dir/a.png', now + 48 * HOUR);
      expect((await lstat(path)).isFile()).toBe(true);
      expect(await memory.recall(upload)).toBe('oss://dir/a.png');
    },
  );

  it('keeps only the links that expire last when long links would make the file too large', async () => {
    const path = join(dir, UPLOAD_MEMORY_FILE);
    const long = (n: number) => `oss://dir/${String(n).padStart(4, '0')}/${'x'.repeat(4_000)}.png`;
    const entry = (n: number) => ({
      id: n.toString(16).padStart(64, '0'),
      link: long(n),
      expiresAt: now + (n + 10) * HOUR,
    });
    // As full as 4 kB links make it: one more entry would not fit. Each expires an hour after the last.
    const entries = [entry(0)];
    let size = JSON.stringify({ version: 1, entries }).length;
    for (;;) {
      const more = JSON.stringify(entry(entries.length)).length + 1;
      if (size + more > MAX_UPLOAD_MEMORY_BYTES) break;
      entries.push(entry(entries.length));
      size += more;
    }
    await writeFile(path, JSON.stringify({ version: 1, entries }));
    const newest = { ...upload, sha256: 'c'.repeat(64) };
    await memory.remember(newest, long(9_999), now + (entries.length + 10) * HOUR);
    expect((await stat(path)).size).toBeLessThanOrEqual(MAX_UPLOAD_MEMORY_BYTES);
    expect(await memory.recall(newest)).toBe(long(9_999));
    const kept = (
      JSON.parse(await readFile(path, 'utf8')) as { entries: { link: string }[] }
    ).entries.map((one) => one.link);
    // The file was read (all but the soonest to expire kept), and the newest fitted in its place.
    expect(kept).toHaveLength(entries.length);
    expect(kept).toContain(long(entries.length - 1));
    expect(kept).not.toContain(long(0));
  });
});
