/**
 * A triage batch is all or none: the process killed (SIGKILL) inside the history worker's write
 * of a rating of 400 images, after half of them were written in its transaction, leaves every
 * image as it was; the next run rates them all.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { makeImage, makeTask } from '../../support/task-records';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** The child (kill-mid-batch-child.ts), bundled once for the run (tests/support/node-entries.ts). */
const CHILD = 'kill-mid-batch-child';
let dir: string;

afterEach(async () => {
  await removeFolder(dir);
});

function rateAll(
  mode: 'kill' | 'finish',
): Promise<{ signal: NodeJS.Signals | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeEntryArgs(CHILD), dir, mode], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('exit', (_code, signal) => resolve({ signal, stdout }));
  });
}

function ratings(): number[] {
  const history = HistoryStore.open(join(dir, 'data', 'history.sqlite'));
  try {
    return history
      .taskIds({}, Number.MAX_SAFE_INTEGER)
      .map((id) => history.get(id)?.images[0]?.rating ?? 0);
  } finally {
    history.close();
  }
}

describe('a triage batch killed mid-write', () => {
  it('applies all or none', async () => {
    dir = await tempFolder('triage-kill');
    await mkdir(join(dir, 'data'));
    const history = HistoryStore.open(join(dir, 'data', 'history.sqlite'));
    history.putMany(
      Array.from({ length: 400 }, (_, n) =>
        makeTask({
          localId: `t-${String(n).padStart(4, '0')}`,
          createdAt: 1_700_000_000_000 + n,
          images: [makeImage(0)],
        }),
      ),
    );
    history.close();
    const killed = await rateAll('kill');
    expect(killed).toEqual({ signal: 'SIGKILL', stdout: '' });
    expect(new Set(ratings())).toEqual(new Set([0]));
    const finished = await rateAll('finish');
    expect(finished).toEqual({ signal: null, stdout: 'not killed\n' });
    expect(new Set(ratings())).toEqual(new Set([5]));
  });
});
