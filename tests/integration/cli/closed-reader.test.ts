/**
 * A reader that closes its end early (`pictor list --json | head -1`) ends the bundled CLI
 * quietly, as `git log | head` ends: no stack trace, no error text, exit 141 (128 + SIGPIPE, as
 * 130 is Ctrl+C's). Node ignores SIGPIPE, so the write fails with EPIPE instead; unhandled, that
 * was a stack trace on stderr and exit 1. The library holds more than two pipe buffers of rows,
 * so the child is still writing when the pipe closes after the first line. The history is real
 * SQLite written by HistoryStore.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { RECORD_CREATED, makeTaskRecord } from '../../support/task-records';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { REPO_ROOT, childEnv } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/**
 * About 1.3 MB of `--json` rows and 390 KB of text rows. The child can end by itself only if all
 * it writes fits in what the reader takes before it closes (one read, at most 64 KiB) and what
 * the pipe holds (64 KiB): 1,000 tasks made 126 KiB of text, under that 128 KiB, and a run at
 * load 27 saw the child write it all and exit 0.
 */
const TASKS = 3_000;
/**
 * The least a row of either form takes (each test checks its first row): 3,000 of them are more
 * than twice what the pipe and one read hold.
 */
const ROW_BYTES = 120;

/** A home folder, and a library of {@link TASKS} failed tasks, read-only: every test lists it. */
interface World {
  readonly home: string;
  readonly dataDir: string;
}
let world: World;

beforeAll(async () => {
  world = {
    home: await tempFolder('closed-home'),
    dataDir: await tempFolder('closed-data'),
  };
  const store = HistoryStore.open(join(world.dataDir, HISTORY_FILE));
  try {
    store.putMany(
      Array.from({ length: TASKS }, (_, index) =>
        makeTaskRecord(
          {
            localId: `c105ed00-0000-4000-8000-${String(index).padStart(12, '0')}`,
            taskId: `task-${index}`,
            request: { prompt: `A long enough prompt for row ${index}` },
            status: 'failed',
            error: { kind: 'task_failed', message: 'The service could not make this image.' },
          },
          RECORD_CREATED + index * 1_000,
        ),
      ),
    );
  } finally {
    store.close();
  }
});

afterAll(async () => {
  await removeFolder(world.home);
  await removeFolder(world.dataDir);
});

interface ClosedRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** What the reader read of the stream it kept open. */
  readonly kept: string;
  /** What the reader read of the other stream before it closed it. */
  readonly firstLine: string;
}

/**
 * Runs the bundled CLI with `args`, closing `close`'s pipe after its first line (at once when
 * `atOnce`), reading the other stream to its end.
 */
function runClosing(
  args: readonly string[],
  close: 'stdout' | 'stderr',
  atOnce = false,
): Promise<ClosedRun> {
  const child = spawn(process.execPath, [...nodeEntryArgs('cli'), ...args], {
    cwd: REPO_ROOT,
    env: childEnv({ home: world.home }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const closing = close === 'stdout' ? child.stdout : child.stderr;
  const other = close === 'stdout' ? child.stderr : child.stdout;
  let firstLine = '';
  let kept = '';
  other.setEncoding('utf8').on('data', (chunk: string) => (kept += chunk));
  if (atOnce) closing.destroy();
  else
    closing.setEncoding('utf8').on('data', (chunk: string) => {
      if (closing.destroyed) return;
      firstLine = chunk.slice(0, chunk.indexOf('\n') + 1);
      if (firstLine !== '') closing.destroy();
    });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, kept, firstLine }));
  });
}

describe('a reader that closes early', () => {
  it('ends list --all --json quietly with 141, for stdout closed after the first line', async () => {
    const run = await runClosing(
      ['list', '--all', '--json', '--data-dir', world.dataDir],
      'stdout',
    );
    expect(JSON.parse(run.firstLine)).toMatchObject({ taskId: `task-${TASKS - 1}` });
    expect(Buffer.byteLength(run.firstLine)).toBeGreaterThanOrEqual(ROW_BYTES);
    expect(run.kept).toBe('');
    expect(run.code).toBe(141);
  });

  it('ends list --all (text) quietly too', async () => {
    const run = await runClosing(['list', '--all', '--data-dir', world.dataDir], 'stdout');
    expect(run.firstLine).toContain(`task-${TASKS - 1}`);
    expect(Buffer.byteLength(run.firstLine)).toBeGreaterThanOrEqual(ROW_BYTES);
    expect(run.kept).toBe('');
    expect(run.code).toBe(141);
  });

  it('ends with 141 when the reader closes after the command has said its last line', async () => {
    // 2,000 JSON rows (over 800 KB) wait in stdout's queue, unread, while the page's "more" line,
    // the command's last, reaches stderr: the command has returned, its exit code set, and only
    // then does the reader take one chunk and close. The closure is told by the queued rows'
    // EPIPE, after the command's return (a code read at the return said 0).
    const child = spawn(
      process.execPath,
      [...nodeEntryArgs('cli'), 'list', '--limit', '2000', '--json', '--data-dir', world.dataDir],
      { cwd: REPO_ROOT, env: childEnv({ home: world.home }), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.pause();
    let said = '';
    const closed = new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve(code));
    });
    await new Promise<void>((resolve) =>
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        said += chunk;
        if (said.includes('--cursor')) resolve();
      }),
    );
    let firstLine = '';
    child.stdout.setEncoding('utf8').once('data', (chunk: string) => {
      firstLine = chunk.slice(0, chunk.indexOf('\n') + 1);
      child.stdout.destroy();
    });
    child.stdout.resume();
    expect(await closed).toBe(141);
    expect(JSON.parse(firstLine)).toMatchObject({ taskId: `task-${TASKS - 1}` });
  });

  it('ends pictor mcp quietly with 141 when its client stops reading answers', async () => {
    // An MCP client that goes away without closing the server's stdin: the answer to its next
    // calls is written to a pipe nobody reads, and the server ends as a closed reader ends a list.
    const library = await tempFolder('closed-mcp');
    try {
      const child = spawn(
        process.execPath,
        [...nodeEntryArgs('cli'), 'mcp', '--provider', 'demo', '--data-dir', library],
        { cwd: REPO_ROOT, env: childEnv({ home: world.home }), stdio: ['pipe', 'pipe', 'pipe'] },
      );
      let said = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
      const closed = new Promise<number | null>((resolve, reject) => {
        child.once('error', reject);
        child.once('close', (code) => resolve(code));
      });
      const call = (id: number, method: string, params: object) =>
        `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
      let firstLine = '';
      child.stdout.setEncoding('utf8').once('data', (chunk: string) => {
        firstLine = chunk.slice(0, chunk.indexOf('\n') + 1);
        child.stdout.destroy();
        // The client sends on, reading nothing: the tools' list, many times over a pipe's worth.
        for (let id = 1; id <= 100; id++) child.stdin.write(call(id, 'tools/list', {}));
      });
      child.stdin.on('error', () => undefined);
      child.stdin.write(
        call(0, 'initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'gone', version: '1' },
        }),
      );
      expect(await closed).toBe(141);
      expect(JSON.parse(firstLine)).toMatchObject({
        id: 0,
        result: { serverInfo: { name: 'pictor' } },
      });
      expect(said).not.toMatch(/EPIPE|Error|\n\s+at /);
    } finally {
      await removeFolder(library);
    }
  }, 60_000);

  it('ends quietly with 141 when stderr is the stream closed', async () => {
    // The default page of 50 rows, then a "more" line on stderr, whose reader is gone.
    const run = await runClosing(['list', '--data-dir', world.dataDir], 'stderr', true);
    expect(run.kept.split('\n').filter(Boolean)).toHaveLength(50);
    expect(run.code).toBe(141);
  });
});
