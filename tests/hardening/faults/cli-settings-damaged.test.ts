/**
 * The app's settings file (settings.json in the data folder) damaged when a `pictor` command reads
 * it: a send of input images reads "never upload inputs" there. A file torn by a crash or a
 * power loss, emptied, holding a value Pictor does not accept, or replaced by a folder must not
 * read as the defaults (uploads allowed): the command refuses with a sentence naming the file,
 * nothing is uploaded, and the file is left as it was, for the app to report at its next start
 * (the CLI is a guest in the app's data folder: it neither sets the file aside nor rewrites it).
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { useProviderWorlds } from '../../integration/cli/providers-harness';
import { describeRun } from '../../integration/cli/run-cli';
import { TempFolders } from '../../support/temp-folders';

const newWorld = useProviderWorlds();
const folders = new TempFolders();
afterEach(async () => {
  await folders.removeAll();
});

const SAID = JSON.stringify({ settings: { neverUploadInputs: true } }, null, 2);

/** Ways the file is found damaged; each leaves `settings.json` as a file or a folder. */
const DAMAGES: readonly (readonly [string, (path: string) => Promise<void>])[] = [
  ['torn mid-write', (path) => writeFile(path, SAID.slice(0, SAID.length - 9), { mode: 0o600 })],
  ['emptied (a rename that outlived its data)', (path) => writeFile(path, '', { mode: 0o600 })],
  [
    'holding a value Pictor does not accept',
    (path) =>
      writeFile(path, JSON.stringify({ settings: { neverUploadInputs: 'yes' } }), { mode: 0o600 }),
  ],
  ['not an object', (path) => writeFile(path, '[true]', { mode: 0o600 })],
  ['replaced by a folder', (path) => mkdir(path)],
];

/** What is at `path` now: a file's text, or the names in a folder. */
async function stateOf(path: string): Promise<string> {
  try {
    return `file:${await readFile(path, 'utf8')}`;
  } catch {
    return `folder:${(await readdir(path)).join(',')}`;
  }
}

/** A world on DashScope's dialect, a real PNG, and `pictor edit` of it with `--inputs upload`. */
async function uploadEdit(damage: (path: string) => Promise<void>) {
  const world = await newWorld('dashscope');
  const dir = await folders.make('settings-damaged');
  const source = join(dir, 'source.png');
  await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
    .png()
    .toFile(source);
  const settings = join(world.dataDir, 'settings.json');
  await damage(settings);
  const before = await stateOf(settings);
  const run = await world.run([
    'edit',
    source,
    '--prompt',
    'night',
    '--inputs',
    'upload',
    ...world.named,
  ]);
  const storage = (await (await fetch(`${world.service.url}/_demo/storage`)).json()) as {
    requests: unknown[];
  };
  const submits = (await world.service.log()).submits;
  const beside = (await readdir(world.dataDir)).filter((name) => name.startsWith('settings'));
  return { run, settings, before, after: await stateOf(settings), storage, submits, beside };
}

describe('a pictor command over a damaged settings file', () => {
  it('refuses an upload the intact file forbids (what the damaged cases must not lose)', async () => {
    const seen = await uploadEdit((path) => writeFile(path, SAID, { mode: 0o600 }));
    expect(seen.run.code, describeRun(seen.run)).not.toBe(0);
    expect(seen.storage.requests).toEqual([]);
    expect(seen.submits).toEqual([]);
    expect(seen.after).toBe(seen.before);
  });

  it.each(DAMAGES)(
    'refuses to send inputs when the file is %s, and leaves it as it was',
    async (_, damage) => {
      const seen = await uploadEdit(damage);
      expect(seen.run.code, describeRun(seen.run)).toBe(5);
      expect(seen.run.stderr).toContain(seen.settings);
      expect(seen.storage.requests).toEqual([]);
      expect(seen.submits).toEqual([]);
      expect(seen.after).toBe(seen.before);
      expect(seen.beside).toEqual(['settings.json']);
    },
  );
});
