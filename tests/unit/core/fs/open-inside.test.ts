/**
 * openInside against real folders and real links. The injected faults are the swaps another
 * local process can make: a folder on the way (or the file) swapped for a link to an outside
 * twin right before the open, or before the open and back right after it, through the seams at
 * exactly those moments; and, for the descriptor's path, the attacker who sees every call and
 * swaps around each one (scripted-swaps.ts). Nothing outside may ever come back opened, and
 * nothing refused may stay open.
 */
import { mkdir, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openInside, type InsideOpen } from '../../../../electron/core/fs/open-inside';
import { openDescriptorsUnder } from '../../../support/open-descriptors';
import { CONTAINMENTS, scriptSwaps } from '../../../support/scripted-swaps';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let base: string;
let root: string;
const INSIDE = Buffer.from('inside the gallery');
const SECRET = Buffer.from('a private file outside');
const LEVELS = ['2024', '2024/05', '2024/05/task', '2024/05/task/image-1.png'] as const;
const FILE = '2024/05/task/image-1.png';

const at = (top: string, relative: string) => join(top, ...relative.split('/'));

beforeEach(async () => {
  base = await tempFolder('open-inside');
  root = join(base, 'gallery');
  await mkdir(at(root, '2024/05/task'), { recursive: true });
  await writeFile(at(root, FILE), INSIDE);
  // The same layout outside, so a followed link finds a file of the right name.
  await mkdir(at(base, 'outside/2024/05/task'), { recursive: true });
  await writeFile(at(base, `outside/${FILE}`), SECRET);
});
afterEach(() => removeFolder(base));

/** The bytes of an opened file (closing it), or why it was refused. */
async function outcome(opened: InsideOpen): Promise<string> {
  if (!opened.ok) return opened.why;
  try {
    return (await opened.handle.readFile()).toString();
  } finally {
    await opened.handle.close();
  }
}

function swapOut(relative: string): () => Promise<void> {
  return async () => {
    await rename(at(root, relative), `${at(root, relative)}-away`);
    await symlink(at(base, `outside/${relative}`), at(root, relative));
  };
}

function swapBack(relative: string): () => Promise<void> {
  return async () => {
    await unlink(at(root, relative));
    await rename(`${at(root, relative)}-away`, at(root, relative));
  };
}

/** Descriptors open on this test's folders: the gallery and its outside twin. */
const openDescriptors = () => openDescriptorsUnder(base);

describe.each(CONTAINMENTS)('openInside (%s)', (containment) => {
  it('opens a file inside the root, by its path or by the root real path', async () => {
    expect(await outcome(await openInside(root, at(root, FILE), { containment }))).toBe(
      INSIDE.toString(),
    );
    await symlink(root, join(base, 'gallery-link'));
    const viaLink = join(base, 'gallery-link');
    expect(await outcome(await openInside(viaLink, at(viaLink, FILE), { containment }))).toBe(
      INSIDE.toString(),
    );
    expect(await outcome(await openInside(viaLink, at(root, FILE), { containment }))).toBe(
      INSIDE.toString(),
    );
  });

  it('refuses a path outside the root by its text, and a link as the file', async () => {
    const outside = at(base, `outside/${FILE}`);
    expect(await outcome(await openInside(root, outside, { containment }))).toBe('outside');
    expect(await outcome(await openInside(root, root, { containment }))).toBe('outside');
    await symlink(outside, join(root, 'link.png'));
    expect(await outcome(await openInside(root, join(root, 'link.png'), { containment }))).toBe(
      'link',
    );
  });

  it.each(LEVELS)('%s swapped for a link right before the open: refused', async (level) => {
    const before = openDescriptors();
    const opened = await openInside(root, at(root, FILE), {
      containment,
      beforeOpen: swapOut(level),
    });
    expect(opened.ok).toBe(false);
    expect(openDescriptors()).toBe(before);
  });

  it.each(LEVELS)('%s swapped out before the open and back after it: refused', async (level) => {
    const before = openDescriptors();
    const opened = await openInside(root, at(root, FILE), {
      containment,
      beforeOpen: swapOut(level),
      afterOpen: swapBack(level),
    });
    expect(await outcome(opened)).not.toBe(SECRET.toString());
    expect(opened.ok).toBe(false);
    expect(openDescriptors()).toBe(before);
  });
});

describe.skipIf(process.platform !== 'linux')('openInside by the descriptor path', () => {
  it.each(LEVELS.slice(0, 3))(
    'refuses the attacker who sees every call and swaps %s around each',
    async (level) => {
      const swaps = scriptSwaps(at(root, level), at(base, `outside/${level}`));
      let opened: InsideOpen;
      try {
        opened = await openInside(root, at(root, FILE), { containment: 'descriptor' });
      } finally {
        await swaps.restore();
      }
      expect(swaps.linked()).toBeGreaterThan(0);
      expect(await outcome(opened)).toBe('outside');
    },
  );

  it('accepts a link on the way that stays inside the root (where the file really is)', async () => {
    await symlink(at(root, '2024/05'), join(root, 'month'));
    const opened = await openInside(root, at(root, 'month/task/image-1.png'), {
      containment: 'descriptor',
    });
    expect(await outcome(opened)).toBe(INSIDE.toString());
  });
});
