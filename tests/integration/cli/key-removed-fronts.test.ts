/**
 * An image whose own metadata carried a held key and lost it (`ImageRecord.keyRemoved`) says so
 * the same way at every front, not in the viewer only: `pictor info` prints the window's label and
 * sentence (shared/i18n/key-removed.ts, the main catalogue's English) and gives the value in
 * `--json` (`library.keyRemoved`), `pictor list --json` gives it per image, and the MCP tools'
 * image facts (mcp-facts.ts, what task_status, list_images and get_image answer) carry it too. An
 * image that lost nothing says nothing and gives null. The record is the demo's task with the
 * value set in the library, as the download sets it (core/download/key-intake.ts).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { taskFacts } from '../../../electron/cli/mcp/mcp-facts';
import { HISTORY_FILE, HistoryStore } from '../../../electron/core/history';
import type { ImageRecord } from '../../../shared/domain/task-record';
import { cliDemoTask, type CliDemoTask } from '../../support/cli-in-process';

let demo: CliDemoTask;

/** The library's record of the task with its image's `keyRemoved` set (undefined: none). */
function setKeyRemoved(value: ImageRecord['keyRemoved']) {
  const history = HistoryStore.open(join(demo.data, HISTORY_FILE));
  try {
    const record = history.get(demo.localId);
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
  const lines = (await demo.run(['list', '--json'])).stdout.split('\n').filter(Boolean);
  const tasks = lines.map(
    (line) => JSON.parse(line) as { localId: string; images: { keyRemoved: unknown }[] },
  );
  return tasks.find((task) => task.localId === demo.localId)?.images[0]?.keyRemoved;
}

beforeAll(async () => {
  demo = await cliDemoTask();
  return demo.remove;
}, 60_000);

const SAID = {
  metadata:
    '  Metadata removed: When Pictor saved this image, it removed the part of its metadata that carried your API key. The pixels are as the service sent them.\n',
  credentials:
    '  Metadata removed: When Pictor saved this image, it removed the part of its metadata that carried your API key, and its Content Credentials with it (they would no longer match the file). The pixels are as the service sent them.\n',
} as const;

describe('what Pictor removed for a held key, at every front', () => {
  it.each(['metadata', 'credentials'] as const)('says %s the same way', async (value) => {
    const record = setKeyRemoved(value);
    const text = (await demo.run(['info', demo.file])).stdout;
    expect(text).toContain(SAID[value]);
    const info = JSON.parse((await demo.run(['info', demo.file, '--json'])).stdout) as {
      library: { keyRemoved: unknown } | null;
    };
    expect(info.library?.keyRemoved).toBe(value);
    expect(await listedKeyRemoved()).toBe(value);
    expect(taskFacts(record, []).images[0]?.keyRemoved).toBe(value);
  });

  it('says nothing of an image that lost nothing', async () => {
    const record = setKeyRemoved(undefined);
    const text = (await demo.run(['info', demo.file])).stdout;
    expect(text).not.toContain('Metadata removed');
    const info = JSON.parse((await demo.run(['info', demo.file, '--json'])).stdout) as {
      library: { keyRemoved: unknown } | null;
    };
    expect(info.library?.keyRemoved).toBeNull();
    expect(await listedKeyRemoved()).toBeNull();
    expect(taskFacts(record, []).images[0]?.keyRemoved).toBeNull();
  });
});
