/**
 * An image whose own metadata carried a held key and lost it (`ImageRecord.keyRemoved`) says so
 * the same way at every front, not in the viewer only: `pictor info` prints the window's label and
 * sentence (shared/i18n/key-removed.ts, the main catalogue's English) and gives the value in
 * `--json` (`library.keyRemoved`), `pictor list --json` gives it per image, and the MCP tools'
 * image facts (mcp-facts.ts, what task_status, list_images and get_image answer) carry it too. An
 * image that lost nothing says nothing and gives null. The record is the demo's task with the
 * value set in the library, as the download sets it (core/download/key-intake.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskFacts } from '../../../electron/cli/mcp/mcp-facts';
import { HISTORY_FILE, HistoryStore } from '../../../electron/core/history';
import type { ImageRecord } from '../../../shared/domain/task-record';
import { describeInProcess, runInProcess, type InProcessRun } from '../../support/cli-in-process';

let dir = '';
let data = '';
let localId = '';
let file = '';

async function pictor(args: readonly string[]): Promise<InProcessRun> {
  const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config') };
  const run = await runInProcess([...args, '--data-dir', data], env);
  expect(run.code, describeInProcess(run)).toBe(0);
  return run;
}

/** The library's record of the task with its image's `keyRemoved` set (undefined: none). */
function setKeyRemoved(value: ImageRecord['keyRemoved']) {
  const history = HistoryStore.open(join(data, HISTORY_FILE));
  try {
    const record = history.get(localId);
    if (!record) throw new Error('the task is not in the library');
    const images = record.images.map(({ keyRemoved: _, ...image }) =>
      value ? { ...image, keyRemoved: value } : image,
    );
    const changed = { ...record, images };
    history.put(changed);
    return changed;
  } finally {
    history.close();
  }
}

/** What `list --json` (a task a line) gives as the task's image's keyRemoved. */
async function listedKeyRemoved(): Promise<unknown> {
  const lines = (await pictor(['list', '--json'])).stdout.split('\n').filter(Boolean);
  const tasks = lines.map(
    (line) => JSON.parse(line) as { localId: string; images: { keyRemoved: unknown }[] },
  );
  return tasks.find((task) => task.localId === localId)?.images[0]?.keyRemoved;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pictor-key-removed-'));
  data = join(dir, 'data');
  const made = await pictor([
    'generate',
    '--provider',
    'demo',
    'a fox',
    '--size',
    '32x32',
    '--json',
  ]);
  const task = JSON.parse(made.stdout) as { localId: string; images: { path: string }[] };
  localId = task.localId;
  file = task.images[0]?.path ?? '';
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SAID = {
  metadata:
    '  Metadata removed: When Pictor saved this image, it removed the part of its metadata that carried your API key. The pixels are as the service sent them.\n',
  credentials:
    '  Metadata removed: When Pictor saved this image, it removed the part of its metadata that carried your API key, and its Content Credentials with it (they would no longer match the file). The pixels are as the service sent them.\n',
} as const;

describe('what Pictor removed for a held key, at every front', () => {
  it.each(['metadata', 'credentials'] as const)('says %s the same way', async (value) => {
    const record = setKeyRemoved(value);
    const text = (await pictor(['info', file])).stdout;
    expect(text).toContain(SAID[value]);
    const info = JSON.parse((await pictor(['info', file, '--json'])).stdout) as {
      library: { keyRemoved: unknown } | null;
    };
    expect(info.library?.keyRemoved).toBe(value);
    expect(await listedKeyRemoved()).toBe(value);
    expect(taskFacts(record, []).images[0]?.keyRemoved).toBe(value);
  });

  it('says nothing of an image that lost nothing', async () => {
    const record = setKeyRemoved(undefined);
    const text = (await pictor(['info', file])).stdout;
    expect(text).not.toContain('Metadata removed');
    const info = JSON.parse((await pictor(['info', file, '--json'])).stdout) as {
      library: { keyRemoved: unknown } | null;
    };
    expect(info.library?.keyRemoved).toBeNull();
    expect(await listedKeyRemoved()).toBeNull();
    expect(taskFacts(record, []).images[0]?.keyRemoved).toBeNull();
  });
});
