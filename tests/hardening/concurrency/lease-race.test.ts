/**
 * The old finding "two processes taking over a stale lock at the same moment both won". Several
 * processes try to take over the same expired lease at the same instant, round after round:
 * exactly one wins each round (SQLite's write lock orders the conditional upserts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { scaled } from '../support/scale';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { REPO_ROOT } from '../../support/source-files';

const RACERS = 6;
const ROUNDS = scaled(150, 1_000);

const children: ChildProcess[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  if (dir) await removeFolder(dir);
});

describe('taking over an expired lease', () => {
  it(`${RACERS} processes at once, ${ROUNDS} rounds: exactly one wins each round`, async () => {
    dir = await tempFolder('lease-race');
    const file = join(dir, 'history.sqlite');
    const seeder = HistoryStore.open(file);
    const lines = new Map<string, string[]>();
    for (let n = 0; n < RACERS; n += 1) {
      const child = spawn(process.execPath, [...nodeEntryArgs('lease-race-worker'), file], {
        cwd: REPO_ROOT,
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      children.push(child);
      let buffer = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk;
        const parts = buffer.split('\n');
        buffer = parts.pop() ?? '';
        for (const line of parts) {
          const key = line.split(' ')[1] ?? line;
          lines.set(key, [...(lines.get(key) ?? []), line.split(' ')[0]!]);
        }
      });
    }
    const waitLines = async (key: string, count: number): Promise<string[]> => {
      while ((lines.get(key)?.length ?? 0) < count) await new Promise((r) => setTimeout(r, 2));
      return lines.get(key)!;
    };
    await waitLines('ready', RACERS);
    const winners: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const taskId = `task-${round}`;
      // A stale lease: its owner died long ago.
      seeder.claimLeases([taskId], 'dead-process', 0, 1);
      for (const child of children) child.stdin!.write(`go ${taskId}\n`);
      const results = await waitLines(taskId, RACERS);
      winners.push(results.filter((result) => result === 'won').length);
    }
    seeder.close();
    expect(winners.filter((count) => count !== 1)).toEqual([]);
  });
});
