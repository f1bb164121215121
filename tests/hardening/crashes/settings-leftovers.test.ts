/**
 * Crashes: the temporary files writers of settings.json leave when killed between their write
 * and their rename (`settings.json.<host tag>-<pid>-<random>.s<start>.tmp` of a command today,
 * without `.s<start>` before names carried their process's start,
 * `settings.json.<pid>-<random>.tmp` of an earlier one, electron-store's `settings.json.tmp-…`
 * of the app) are removed at the next start, the app's or a command's, and never one a live
 * writer is still writing (adapters/store-temps.ts); the key vault's files' too, at the app's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { ownTempName } from '../../../electron/core/fs/temp-names';
import { ServiceKeys } from '../../../electron/core/key-vault/service-keys';
import { EditSettings } from '../../../electron/core/settings/edit-settings';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { silentLogger } from '../../../electron/ports/logger';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { removeFolder, tempFolder } from '../../support/temp-folders';

// electron-store in plain Node (see tests/unit/adapters/electron-store-kv.test.ts).
vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
});
const { ElectronStoreKv } = await import('../../../electron/adapters/electron-store-kv');

const DAY_AND_MORE = 25 * 60 * 60 * 1000;
const children: ChildProcess[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  if (dir) await removeFolder(dir);
});

/** The app's start over `dataDir`: its settings service, as desktop-start.ts opens it. */
const appStart = (dataDir: string) =>
  new SettingsService({
    store: new ElectronStoreKv({ cwd: dataDir, name: 'settings' }),
    now: Date.now,
  });

/** A command's start that reads the settings (`pictor edit`), as the CLI opens them. */
const commandStart = (dataDir: string) =>
  EditSettings.of({
    settingsStore: new JsonFileKv(dataDir, 'settings'),
    now: Date.now,
    logger: silentLogger,
  }).now();

/** The pid of a process that ran and ended: no process has it now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/** A child that stays alive until killed: a pid some live process has. */
function livePid(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], {
    stdio: 'ignore',
  });
  children.push(child);
  return child.pid!;
}

async function plant(dataDir: string, names: readonly string[], ageMs = 0): Promise<void> {
  for (const name of names) {
    await writeFile(join(dataDir, name), '{"settings":{"the', { mode: 0o600 });
    if (ageMs > 0) {
      const then = new Date(Date.now() - ageMs);
      await utimes(join(dataDir, name), then, then);
    }
  }
}

const besideSettings = async (dataDir: string) =>
  (await readdir(dataDir)).filter((name) => name.startsWith('settings.json.')).sort();

/** Today's naming for a command of this machine whose pid was `pid` (with its start, on Linux). */
const todays = (pid: number) =>
  `settings.json.${ownTempName('.tmp').replace(`-${process.pid}-`, `-${pid}-`)}`;
/** Today's naming as commands wrote it before names carried their process's start. */
const todaysUnstarted = (pid: number) =>
  `settings.json.${ownTempName('.tmp')
    .replace(`-${process.pid}-`, `-${pid}-`)
    .replace(/\.s[0-9]+\.tmp$/, '.tmp')}`;
/** A name of today's shape whose start is no number: not Pictor's, so nobody's to remove. */
const todaysCrafted = (pid: number) =>
  `settings.json.${ownTempName('.tmp')
    .replace(`-${process.pid}-`, `-${pid}-`)
    .replace(/(\.s[0-9]+)?\.tmp$/, '.s12x.tmp')}`;
const earlier = (pid: number, random = '0123456789ab') => `settings.json.${pid}-${random}.tmp`;
const electronStores = (n: number) => `settings.json.tmp-17646${n}0000abcdef`;

describe('temporary files of killed settings writers', () => {
  it.each([
    ['a command', commandStart],
    ['the app', appStart],
  ] as const)("go at %s's start; a live writer's stay", async (_, start) => {
    dir = await tempFolder('settings-leftovers');
    const [dead, live] = [await deadPid(), livePid()];
    // Today's naming is written holding the lock a start takes to remove them: whoever's pid,
    // none is being written. An earlier command's goes when its process is gone.
    await plant(dir, [todays(dead), todays(live), todaysUnstarted(dead), todaysUnstarted(live)]);
    await plant(dir, [earlier(dead)]);
    const kept = [
      earlier(live),
      todaysCrafted(dead),
      'settings.json.bak',
      'settings.json.tmp-mine',
    ];
    await plant(dir, kept);
    // Past a day, anyone's.
    await plant(dir, [earlier(live, 'ba9876543210'), electronStores(2)], DAY_AND_MORE);
    const folder = earlier(dead, 'f0f0f0f0f0f0');
    await mkdir(join(dir, folder));
    await plant(dir, [electronStores(1)]);
    start(dir);
    const expected = [...kept, folder, 'settings.json.lock'];
    // electron-store's names carry no owner: only the app, its file's one owner, removes them.
    if (start === commandStart) expected.push(electronStores(1));
    expect(await besideSettings(dir)).toEqual(expected.sort());
  });

  it('stay while their writer, alive, holds the file between its write and its rename', async () => {
    dir = await tempFolder('settings-leftovers');
    const worker = spawn(
      process.execPath,
      [...nodeEntryArgs('settings-writer-worker'), 'hold', dir],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    children.push(worker);
    const said = (line: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        let out = '';
        worker.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const found = line.exec(out);
          if (found) resolve(found);
        });
        worker.once('exit', (code) => reject(new Error(`the worker ended (${code}): ${out}`)));
      });
    const holding = await said(/holding (\S+)\n/);
    const temporary = holding[1]!;
    commandStart(dir);
    expect(await besideSettings(dir)).toContain(temporary.slice(dir.length + 1));
    worker.stdin.write('release\n');
    await said(/released\n/);
  });
});

describe("temporary files of the key vault's killed writes", () => {
  it("go at the app's start, an old key's record with them", async () => {
    dir = await tempFolder('settings-leftovers');
    const dead = await deadPid();
    const left = [
      `key-vault-pictor.json.tmp-1764600000abcdef`,
      `key-vault-fal.json.${ownTempName('.tmp').replace(`-${process.pid}-`, `-${dead}-`)}`,
      `key-vault.json.${dead}-0123456789ab.tmp`,
    ];
    await plant(dir, left);
    new ServiceKeys({
      storeFor: (provider) => new ElectronStoreKv({ cwd: dir!, name: `key-vault-${provider}` }),
      earlierStore: new ElectronStoreKv({ cwd: dir, name: 'key-vault' }),
      cipher: new InMemoryCipher(),
      now: Date.now,
    });
    const names = await readdir(dir);
    expect(names.filter((name) => name.endsWith('.lock') === false)).toEqual([]);
  });
});
