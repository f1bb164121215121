/**
 * Owner-only modes. The data folder is 0700 (made so, and tightened when an older
 * version left it wider); the key vault, settings, log and history files are 0600. POSIX only:
 * Windows has no such bits.
 */
import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { existsSync } from 'node:fs';
import { RotatingFileLogger } from '../../../../electron/core/logging/rotating-file-logger';
import { HISTORY_FILE } from '../../../../electron/core/pictor-core';
import { offlineCore, offlineDir } from '../../../support/offline-core';

// electron-store imports `electron`; told where a binary would be, it never downloads one
// (see tests/unit/adapters/electron-store-kv.test.ts).
vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
});
const { ElectronStoreKv } = await import('../../../../electron/adapters/electron-store-kv');

let base: string;
beforeEach(async () => {
  base = await offlineDir();
});

async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

const openCore = (dataDir: string) => offlineCore({ dir: base, dataDir });

describe.skipIf(process.platform === 'win32')('owner-only modes', () => {
  it('a new data folder is 0700; its history files (with the write-ahead log) are 0600', async () => {
    const dataDir = join(base, 'new', 'data');
    const core = await openCore(dataDir);
    try {
      expect(await modeOf(dataDir)).toBe(0o700);
      for (const file of [HISTORY_FILE, `${HISTORY_FILE}-wal`, `${HISTORY_FILE}-shm`]) {
        if (file === HISTORY_FILE || existsSync(join(dataDir, file)))
          expect(await modeOf(join(dataDir, file)), file).toBe(0o600);
      }
    } finally {
      await core.close();
    }
  });

  it('an existing data folder readable by others is tightened to 0700', async () => {
    const dataDir = join(base, 'data');
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    const core = await openCore(dataDir);
    await core.close();
    expect(await modeOf(dataDir)).toBe(0o700);
  });

  it('the log file is 0600 (new or left 0644 by an older version), its folder 0700', async () => {
    const dir = join(base, 'logs');
    const logger = new RotatingFileLogger({ dir, fallback: () => undefined });
    logger.info('first line');
    await logger.close();
    expect(await modeOf(logger.path)).toBe(0o600);
    expect(await modeOf(dir)).toBe(0o700);
    await chmod(logger.path, 0o644);
    const again = new RotatingFileLogger({ dir, fallback: () => undefined, maxBytes: 200 });
    for (let i = 0; i < 5; i += 1) again.info(`line ${i} with some words to fill the file`);
    await again.close();
    expect(await modeOf(again.path)).toBe(0o600);
    expect(await modeOf(again.rotatedPath(1))).toBe(0o600);
  });

  it('the log never writes through a link planted at its name', async () => {
    const dir = join(base, 'logs');
    await mkdir(dir);
    await writeFile(join(base, 'victim.txt'), 'untouched');
    await symlink(join(base, 'victim.txt'), join(dir, 'pictor.log'));
    const fallback: string[] = [];
    const logger = new RotatingFileLogger({ dir, fallback: (text) => fallback.push(text) });
    logger.info('a line');
    await logger.close();
    expect(await readFile(join(base, 'victim.txt'), 'utf8')).toBe('untouched');
    expect(fallback.join('')).toContain('a line');
  });

  it('electron-store files (settings, key vault) are 0600, new or left 0644', async () => {
    const kv = new ElectronStoreKv({ cwd: base, name: 'key-vault' });
    kv.set('record', { v: 1 });
    expect(await modeOf(kv.path)).toBe(0o600);
    await writeFile(join(base, 'settings.json'), '{"theme":"dark"}', { mode: 0o644 });
    const settings = new ElectronStoreKv({ cwd: base, name: 'settings' });
    expect(settings.get('theme')).toBe('dark');
    expect(await modeOf(settings.path)).toBe(0o600);
  });
});
