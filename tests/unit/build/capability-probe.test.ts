/**
 * The capability probe CI runs with the dev Electron binary before the suite (ELECTRON_RUN_AS_NODE)
 * runs here with plain Node: it passes on a Node that has everything, and names the capability
 * that is missing when one is (node:sqlite turned off, FTS5 without the trigram tokenizer,
 * memory that is not shared, a worker that never answers).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { binaryInDist } from '../../../electron/build/check-electron';
import {
  capabilities,
  probeWorkerAndSharedMemory,
  runProbe,
} from '../../../electron/build/capability-probe.mjs';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';
import { bareEnv } from '../../support/child-env';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PROBE = path.join(ROOT, 'electron', 'build', 'capability-probe.mjs');

function probe(
  nodeFlags: string[] = [],
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): { status: number | null; out: string } {
  const result = spawnSync(process.execPath, [...nodeFlags, PROBE, ...args], {
    encoding: 'utf8',
    env: bareEnv(env),
    timeout: 30_000,
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('the capability probe, run by node', () => {
  it('passes on this Node, one line per capability', () => {
    const { status, out } = probe();
    expect(status, out).toBe(0);
    expect(out).toMatch(/node:sqlite FTS5 trigram table: ok/);
    expect(out).toMatch(/worker thread with a shared WebAssembly\.Memory: ok/);
  });

  it('fails in seconds, naming node:sqlite, when the runtime has none', () => {
    const { status, out } = probe(['--no-experimental-sqlite']);
    expect(status, out).toBe(1);
    expect(out).toMatch(/FAILED node:sqlite FTS5 trigram table: No such built-in module/);
  });
});

describe.skipIf(process.platform === 'win32')('npm run ci:probe (--electron)', () => {
  it('runs itself again in the Electron binary with ELECTRON_RUN_AS_NODE=1', () => {
    const dist = tempFolderSync('probe-electron');
    try {
      // A stand-in Electron that is Node when ELECTRON_RUN_AS_NODE=1, as the real one is.
      const binary = path.join(dist, binaryInDist(process.platform));
      const script = `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || { echo "not run as node"; exit 3; }\nexec "${process.execPath}" "$@"\n`;
      mkdirSync(path.dirname(binary), { recursive: true });
      writeFileSync(binary, script);
      chmodSync(binary, 0o755);
      const { status, out } = probe([], ['--electron'], { ELECTRON_OVERRIDE_DIST_PATH: dist });
      expect(status, out).toBe(0);
      expect(out).toMatch(/FTS5 trigram table: ok/);
    } finally {
      removeFolderSync(dist);
    }
  });

  it('fails, saying so, when there is no Electron binary', () => {
    const { status, out } = probe([], ['--electron'], {
      ELECTRON_OVERRIDE_DIST_PATH: path.join(tmpdir(), 'pictor-no-electron-here'),
    });
    expect(status, out).toBe(1);
    expect(out).toMatch(/FAILED Electron binary: none found/);
  });
});

/** node:sqlite whose SQLite was built without the trigram tokenizer (before 3.34). */
class NoTrigramDatabase extends DatabaseSync {
  override exec(sql: string): void {
    if (/tokenize\s*=\s*'trigram'/.test(sql)) throw new Error('no such tokenizer: trigram');
    super.exec(sql);
  }
}

describe('each fault it exists to catch', () => {
  it('an SQLite without the trigram tokenizer', async () => {
    const lines: string[] = [];
    const outcomes = await runProbe(
      capabilities({ loadSqlite: async () => ({ DatabaseSync: NoTrigramDatabase }) }),
      (line) => lines.push(line),
    );
    expect(outcomes.at(-1)).toEqual({
      ok: false,
      name: 'node:sqlite FTS5 trigram table',
      reason: 'no such tokenizer: trigram',
    });
    expect(lines.at(-1)).toMatch(/^capability probe: FAILED node:sqlite FTS5 trigram table/);
  });

  it('WebAssembly memory that is not shared', async () => {
    const unshared = {
      ...WebAssembly,
      Memory: class {
        readonly buffer = new ArrayBuffer(65_536);
      },
    } as unknown as typeof WebAssembly;
    const outcomes = await runProbe(capabilities({ WebAssembly: unshared }), () => undefined);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false]);
    expect(outcomes[1]).toMatchObject({
      name: 'worker thread with a shared WebAssembly.Memory',
      reason: expect.stringMatching(/not backed by a SharedArrayBuffer/),
    });
  });

  it('a worker that starts but never answers', async () => {
    class Silent extends Worker {
      constructor(_source: string, options: WorkerOptions) {
        super('setInterval(() => undefined, 1000)', { ...options, eval: true });
      }
    }
    await expect(probeWorkerAndSharedMemory({ Worker: Silent, WebAssembly }, 300)).rejects.toThrow(
      'the worker did not answer within 300 ms',
    );
  });
});
