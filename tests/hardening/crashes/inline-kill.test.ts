/**
 * A kill between reading an inline result and saving it loses nothing: the core (in a child
 * process) is killed with SIGKILL while its image is being checked, when the task is recorded
 * completed and its bytes exist only in the spool file. The service is then shut down, so the
 * next start cannot ask it again: the image is saved from the spool alone, with every check a
 * download gets, and the spool goes. The history never holds the base64 text.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { filesUnder } from '../../support/files';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { REPO_ROOT } from '../../support/source-files';

let service: DemoService | undefined;
let dir: string | undefined;
let child: ReturnType<typeof spawn> | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  await service?.close();
  if (dir) await removeFolder(dir);
});

/**
 * Runs the worker; with `killAt`, kills it with SIGKILL at that marker (the run must end so).
 * Resolves with the lines it printed.
 */
async function runWorker(args: readonly string[], killAt: string | null): Promise<string[]> {
  const worker = spawn(process.execPath, [...nodeEntryArgs('inline-kill-worker'), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = worker;
  const lines: string[] = [];
  let stderr = '';
  let pending = '';
  worker.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (pending + chunk).split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      if (line === killAt) worker.kill('SIGKILL');
    }
  });
  worker.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code, signal] = (await once(worker, 'close')) as [number | null, string | null];
  child = undefined;
  if (killAt !== null && signal !== 'SIGKILL') {
    throw new Error(`worker ended with ${String(code ?? signal)} before its kill: ${stderr}`);
  }
  if (killAt === null && code !== 0)
    throw new Error(`worker ended with ${String(code)}: ${stderr}`);
  return lines;
}

function onlyRecord(data: string): TaskRecord {
  const history = HistoryStore.open(join(data, 'history.sqlite'));
  try {
    const records = history.list({ limit: 10 }).items;
    expect(records).toHaveLength(1);
    return records[0]!;
  } finally {
    history.close();
  }
}

function historyText(data: string): string {
  return ['history.sqlite', 'history.sqlite-wal']
    .map((name) => join(data, name))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');
}

describe('an inline result under kill -9', () => {
  it('is saved from its spool after a kill between reading and saving it', async () => {
    service = await startDemoService({ inlineResults: 'b64-json', durationMs: 300 });
    dir = await tempFolder('inline-kill');
    const data = join(dir, 'data');
    const gallery = join(dir, 'gallery');
    const args = [data, gallery, service.url];

    const killed = await runWorker([...args, 'run'], 'phase check');
    expect(killed).toContain('phase check');

    // Killed mid-save: the task is completed, its image pending, named by the hash of its bytes.
    const before = onlyRecord(data);
    expect(before.status).toBe('completed');
    const [image] = before.images;
    expect(image?.state).toBe('pending');
    const [, sha = ''] = /^inline:([0-9a-f]{64})$/.exec(image?.url ?? '') ?? [];
    expect(sha).not.toBe('');
    const spool = join(gallery, before.folder ?? '', '.inline', sha);
    const kept = readFileSync(spool);
    expect(createHash('sha256').update(kept).digest('hex')).toBe(sha);
    if (process.platform !== 'win32') expect(statSync(spool).mode & 0o777).toBe(0o600);
    const served = await fetch(service.tasks()[0]?.imageUrls[0] ?? '');
    const base64 = Buffer.from(await served.arrayBuffer()).toString('base64');
    expect(kept.toString('base64')).toBe(base64);
    expect(historyText(data)).not.toContain(base64.slice(64, 128));

    // The service is gone: what is saved next comes from the spool alone.
    await service.close();
    service = undefined;
    const lines = await runWorker([...args, 'finish'], null);
    expect(lines.some((line) => line.startsWith('done '))).toBe(true);

    const after = onlyRecord(data);
    expect(after.images[0]).toMatchObject({ state: 'saved', mime: 'image/png', url: image?.url });
    const file = join(gallery, after.images[0]?.file ?? '');
    const meta = await sharp(file).metadata();
    expect([meta.width, meta.height]).toEqual([256, 256]);
    await sharp(file).stats(); // decodes the whole file: a half-written PNG throws
    expect(existsSync(spool)).toBe(false);
    expect(existsSync(join(gallery, after.folder ?? '', '.inline'))).toBe(false);
    const left = await filesUnder(gallery);
    expect(left.filter((path) => path.includes('.pictor-tmp'))).toEqual([]);
    expect(historyText(data)).not.toContain(base64.slice(64, 128));
  });
});
