/**
 * `pictor local-servers`: the command line's way to the list Settings › Local servers keeps (the
 * other users' loopback servers Pictor may send to), written to the app's settings.json through the
 * app's own settings service. Every spelling is kept as the app keeps it; anything that is not a
 * loopback server's address is refused with nothing written; a damaged settings file is left for
 * the app to repair, never overwritten; and the gate reads what the command wrote.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { EditSettings } from '../../../electron/core/settings';
import { silentLogger } from '../../../electron/ports/logger';
import { describeInProcess, runInProcess } from '../../support/cli-in-process';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { memoryTempParent } from '../../support/memory-temp';

let dir = '';
beforeEach(async () => {
  dir = await tempFolder('local-servers', memoryTempParent());
});
afterEach(async () => {
  await removeFolder(dir);
});

const data = () => join(dir, 'data');
const run = (...args: string[]) =>
  runInProcess(['local-servers', ...args, '--data-dir', data()], { HOME: dir });
const settingsFile = () => join(data(), 'settings.json');

describe('pictor local-servers', () => {
  it('allows, lists and removes addresses in the kept spelling, as the app reads them', async () => {
    const empty = await run();
    expect(empty.code, describeInProcess(empty)).toBe(0);
    expect(empty.stdout).toContain('No local server of another user is allowed.');

    for (const spelt of ['http://127.1:8188/', '127.0.0.1:8188', '[0:0::1]:9000']) {
      const allowed = await run('allow', spelt);
      expect(allowed.code, describeInProcess(allowed)).toBe(0);
    }
    const listed = await run('list', '--json');
    expect(JSON.parse(listed.stdout)).toEqual({
      allowedLocalServers: ['127.0.0.1:8188', '[::1]:9000'],
    });
    // The gate's reading of the same file (core/settings/edit-settings.ts).
    const store = new JsonFileKv(data(), 'settings');
    const gateReads = EditSettings.of({
      settingsStore: store,
      now: Date.now,
      logger: silentLogger,
    });
    expect(gateReads.allowedLocalServers()).toEqual(['127.0.0.1:8188', '[::1]:9000']);
    if (process.platform !== 'win32') expect((await stat(settingsFile())).mode & 0o077).toBe(0);

    const removed = await run('remove', 'http://127.0.0.1:8188');
    expect(removed.code, describeInProcess(removed)).toBe(0);
    expect(removed.stdout).toContain('[::1]:9000');
    expect(removed.stdout).not.toContain('8188');
    expect(gateReads.allowedLocalServers()).toEqual(['[::1]:9000']);
  });

  it.each([
    ['10.0.0.2:8188'],
    ['example.com:8188'],
    ['0.0.0.0:8188'],
    ['127.0.0.1'],
    ['127.0.0.1:8188/path'],
    ['user:pw@127.0.0.1:8188'],
    ['127.0.0.1:8188\n127.0.0.1:22'],
    ['\u001b[2J127.0.0.1:8188'],
  ])('refuses %j as a usage mistake, writing nothing', async (written) => {
    const refused = await run('allow', written);
    expect(refused.code, describeInProcess(refused)).toBe(2);
    expect(refused.stderr).toContain('host:port');
    expect(refused.stderr).not.toContain('\u001b');
    await expect(stat(settingsFile())).rejects.toThrow();
  });

  it('refuses a line that is not list, allow or remove', async () => {
    for (const args of [['add', '127.0.0.1:1'], ['allow'], ['list', '127.0.0.1:1']]) {
      const refused = await run(...args);
      expect(refused.code, describeInProcess(refused)).toBe(2);
    }
  });

  it('leaves a damaged settings file as it is, for the app to repair', async () => {
    await run('allow', '127.0.0.1:8188');
    const damaged = '{"settings": {"allowedLocalServers": 5';
    await writeFile(settingsFile(), damaged);
    const refused = await run('allow', '127.0.0.1:9000');
    expect(refused.code, describeInProcess(refused)).not.toBe(0);
    expect(await readFile(settingsFile(), 'utf8')).toBe(damaged);
  });
});
