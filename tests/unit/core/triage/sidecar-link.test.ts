/**
 * A crafted gallery folder with a symbolic link where an image's XMP sidecar goes
 * (`image-<n>.xmp`): rating the image on the real core never writes through the link. The file it
 * points at (outside the gallery, holding a packet Pictor would rewrite) stays byte-identical,
 * the link stays as it is, the rating is in the history and (that image's XMP could not take it)
 * in the task's `pictor.json`, the log says which image's sidecar was left and why, and the
 * task's other image gets its sidecar, the one place its rating is written. The
 * gallery's atomic write, met by a link planted after that read, replaces the link, not its file.
 */
import { lstat, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { readOwnTriage } from '../../../../electron/core/gallery/metadata/xmp-own-triage';
import { writeFileAtomic } from '../../../../electron/core/fs/atomic-file';
import { TEMP_DIR } from '../../../../electron/core/fs/temp-names';
import { buildTriagePacket } from '../../../../electron/core/gallery/metadata/xmp-triage';
import type { LogFields, Logger } from '../../../../electron/ports/logger';
import { makeImage as makeImageFile } from '../../../support/gallery-helpers';
import { makeImage, makeTask } from '../../../support/task-records';
import { offlineCore, offlineDir } from '../../../support/offline-core';

let dir: string;

beforeEach(async () => {
  dir = await offlineDir();
});

describe('a link at an image’s XMP sidecar name', () => {
  it('is never written through when the image is rated; the rating is saved and the log says so', async () => {
    const gallery = join(dir, 'gallery');
    const folder = join(gallery, 't-0');
    await mkdir(folder, { recursive: true });
    const png = await makeImageFile('png', 8, 8);
    await writeFile(join(folder, 'image-1.png'), png);
    await writeFile(join(folder, 'image-2.png'), png);
    // Outside the gallery, a file holding what Pictor would replace: a packet of triage alone.
    const target = join(dir, 'elsewhere.xmp');
    const before = buildTriagePacket({ rating: 1, subjects: ['not yours'] });
    await writeFile(target, before);
    await symlink(target, join(folder, 'image-1.xmp'));

    const warnings: Array<{ message: string; fields?: LogFields }> = [];
    const logger: Logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (message, fields) => void warnings.push({ message, fields }),
      error: () => undefined,
    };
    const core = await offlineCore({ dir, logger });
    const file = (n: number) => `t-0/image-${String(n)}.png`;
    const task = makeTask({
      localId: 'linked',
      folder: 't-0',
      images: [0, 1].map((n) => makeImage(n, { file: file(n + 1), bytes: png.length })),
    });
    try {
      core.history.put(task);
      const refs = [0, 1].map((index) => ({ localId: 'linked', index }));
      expect(await core.triage.apply(refs, { kind: 'rating', rating: 4 })).toMatchObject({
        changed: 2,
      });
    } finally {
      // Closing writes the sidecars still waiting.
      await core.close();
    }

    expect((await readFile(target)).equals(before)).toBe(true);
    expect((await lstat(join(folder, 'image-1.xmp'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(folder, 'image-1.xmp'))).toBe(target);
    const sidecar = JSON.parse(await readFile(join(folder, 'pictor.json'), 'utf8')) as {
      record: { images: Array<{ rating?: number }> };
    };
    // The first image's XMP could not take its rating: pictor.json keeps it. The other image,
    // with no link in the way, has its rating in its XMP sidecar, the one place it is written.
    expect(sidecar.record.images.map((image) => image.rating)).toEqual([4, undefined]);
    expect(existsSync(join(folder, 'image-2.xmp'))).toBe(true);
    const xmp = await readFile(join(folder, 'image-2.xmp'), 'utf8');
    expect(xmp).toContain('<xmp:Rating>4</xmp:Rating>');
    expect(readOwnTriage(xmp)).toMatchObject({ rating: 4 });
    expect(warnings).toContainEqual({
      message: "An image's XMP sidecar could not be brought up to date.",
      fields: { index: 0, code: 'error', reason: 'It is a link, which Pictor does not follow.' },
    });
  });

  it('the gallery’s atomic write replaces a link at the name, never the file it points at', async () => {
    // Should a link appear between the sidecar's read and its write, the write still lands here.
    const root = join(dir, 'gallery');
    await mkdir(join(root, TEMP_DIR), { recursive: true });
    const target = join(dir, 'elsewhere.txt');
    await writeFile(target, 'theirs');
    await symlink(target, join(root, 'image-1.xmp'));
    await writeFileAtomic(root, join(root, 'image-1.xmp'), 'ours');
    expect(await readFile(target, 'utf8')).toBe('theirs');
    expect((await lstat(join(root, 'image-1.xmp'))).isFile()).toBe(true);
    expect(await readFile(join(root, 'image-1.xmp'), 'utf8')).toBe('ours');
  });
});
