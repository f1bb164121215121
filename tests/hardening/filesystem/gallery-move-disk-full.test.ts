/**
 * A gallery move onto a real disk that fills up half-way (a small tmpfs, Linux as
 * root). The old library must stay complete and in use, the target must hold only whole task
 * folders, the error must say how far the move got, and a retry once the disk has room must
 * finish the move. Where no tmpfs can be mounted, the unit suite's injected faults cover the
 * same path (tests/unit/core/library/relocate.test.ts) and this suite says why it skipped.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GalleryMoveError, relocateGallery } from '../../../electron/core/library/relocate';
import { mountTmpfs, probeMount, unmount } from '../crashes/disk-fixture';
import { snapshotTree, type TreeSnapshot } from '../../support/tree-snapshot';
import { makeLibrary } from '../../support/relocate-fixture';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const probe = probeMount();
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function under(snapshot: TreeSnapshot, folders: readonly string[]): TreeSnapshot {
  return Object.fromEntries(
    Object.entries(snapshot).filter(([path]) => folders.some((f) => path.startsWith(`${f}/`))),
  );
}

describe.skipIf(!probe.ok)(
  `gallery move onto a disk that fills up${probe.ok ? '' : ` (skipped: ${probe.reason})`}`,
  () => {
    it('stops with the old library whole and in use, then a retry with room finishes', async () => {
      const base = await tempFolder('move-disk');
      cleanups.push(() => removeFolder(base));
      const source = join(base, 'home', 'Pictures', 'Pictor');
      const disk = join(base, 'disk');
      await mkdir(source, { recursive: true });
      await mkdir(disk);
      // Six task folders of about 200 KB each onto a 640 KiB disk: it fills after two or three.
      const folders = await makeLibrary(source, 6, { width: 256, height: 256 });
      mountTmpfs(disk, 640 * 1024);
      cleanups.push(() => unmount(disk));
      const target = join(disk, 'Gallery');
      const options = {
        home: join(base, 'home'),
        dataDir: join(base, 'data'),
        platform: process.platform,
      };
      const before = await snapshotTree(source);
      const switches: string[] = [];
      const switchTo = (to: string) => void switches.push(to);

      const error = await relocateGallery(source, target, { ...options, switchTo }).catch(
        (e: unknown) => e,
      );

      expect(error).toBeInstanceOf(GalleryMoveError);
      const { copied, total } = error as GalleryMoveError;
      expect(total).toBe(folders.length);
      expect(copied).toBeGreaterThan(0);
      expect(copied).toBeLessThan(total);
      const message = (error as Error).message;
      expect(message).toContain(`${copied} of ${total} task folders were copied to ${target}`);
      expect(message).toContain('the disk is full');
      expect(message).toContain(`Your library is still at ${source}`);
      expect(switches).toEqual([]);
      expect(await snapshotTree(source)).toEqual(before);
      // Exactly the first `copied` task folders are in place, whole; no partial copy remains.
      const onDisk = await snapshotTree(target, (path) => path.startsWith('.pictor-tmp'));
      expect(under(onDisk, folders)).toEqual(under(before, folders.slice(0, copied)));
      expect(await readdir(join(target, '.pictor-tmp'))).toEqual([]);

      execFileSync('mount', ['-o', 'remount,size=16m', disk], { stdio: 'pipe' });
      const result = await relocateGallery(source, target, { ...options, switchTo });

      expect(result).toEqual({ moved: total, leftBehind: [] });
      expect(switches).toEqual([target]);
      const moved = await snapshotTree(target, (path) => path.startsWith('.pictor-tmp'));
      expect(under(moved, folders)).toEqual(under(before, folders));
      expect(under(await snapshotTree(source), folders)).toEqual({});
    });
  },
);
