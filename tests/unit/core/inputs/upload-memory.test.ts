/**
 * The memory of uploads that stay usable a while (DashScope's 48 h): reused while more than an hour
 * remains, named by the account's key fingerprint (nothing derived from the key is written), a
 * damaged file a memory lost.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UPLOAD_MEMORY_FILE, UploadMemory } from '../../../../electron/core/inputs/upload-memory';

const HOUR = 3_600_000;
const SHA = 'a'.repeat(64);
let dir: string;
let now: number;
let memory: UploadMemory;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pictor-upload-memory-'));
  now = 1_000_000;
  memory = new UploadMemory(dir, () => now);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

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
});
