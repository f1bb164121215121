import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { galleryGuard, isInsideFolder } from '../../../../electron/app/os/path-guard';
import { suggestedFileName } from '../../../../electron/app/os/save-name';
import { fileFolder } from '../../../support/per-test';

describe('suggestedFileName', () => {
  it.each([
    ['A red fox in snow', 0, 'a/b.png', 'A red fox in snow.png'],
    ['A red fox in snow', 1, 'a/b.png', 'A red fox in snow 2.png'],
    ['a cat', 0, 'x/y.WEBP', 'a cat.webp'],
    ['a cat', 0, 'x/y', 'a cat.png'],
    ['what: a <cat>/dog? "yes" | no*', 0, 'y.jpg', 'what a cat dog yes no.jpg'],
    ['line one\nline\ttwo', 0, 'y.png', 'line one line two.png'],
    ['...hidden', 0, 'y.png', 'hidden.png'],
    ['trailing dots...   ', 0, 'y.png', 'trailing dots.png'],
    ['   ', 0, 'y.png', 'Pictor image.png'],
    ['???', 2, 'y.png', 'Pictor image 3.png'],
    ['CON', 0, 'y.png', 'CON image.png'],
    ['lpt1', 0, 'y.png', 'lpt1 image.png'],
  ])('%j #%i → %s', (prompt, index, source, expected) => {
    expect(suggestedFileName(prompt, index, source)).toBe(expected);
  });

  it('cuts a long prompt at a word, under 60 characters', () => {
    const name = suggestedFileName(
      'an oil painting of a lighthouse on a cliff at dusk with seagulls and heavy clouds',
      0,
      'a.png',
    );
    expect(name).toBe('an oil painting of a lighthouse on a cliff at dusk with.png');
  });

  it('never splits an emoji', () => {
    const name = suggestedFileName('🦊'.repeat(70), 0, 'a.png');
    expect(name).toBe(`${'🦊'.repeat(60)}.png`);
    expect(name).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('isInsideFolder', () => {
  const root = join(tmpdir(), 'gallery');
  it.each([
    [join(root, 'a.png'), false, true],
    [join(root, 'sub', 'a.png'), false, true],
    [root, false, false],
    [root, true, true],
    [join(root, '..', 'a.png'), false, false],
    [join(root, 'sub', '..', '..', 'a.png'), false, false],
    [`${root}-other/a.png`, false, false],
    ['relative/a.png', false, false],
    [`${join(root, 'a')}\0.png`, false, false],
  ])('%s (root allowed: %s) → %s', (path, allowRoot, expected) => {
    expect(isInsideFolder(root, path, allowRoot)).toBe(expected);
  });
});

describe('galleryGuard', () => {
  let root: string;

  const base = fileFolder('guard', async (folder) => {
    root = join(folder, 'gallery');
    await mkdir(join(root, 'task'), { recursive: true });
    await writeFile(join(root, 'task', 'a.png'), 'x');
    await writeFile(join(folder, 'secret.txt'), 'x');
    await symlink(join(folder, 'secret.txt'), join(root, 'task', 'link.png'));
    await symlink(folder, join(root, 'escape'));
  });

  it('passes a real file inside the gallery', async () => {
    expect(await galleryGuard(() => root)(join(root, 'task', 'a.png'))).toBe(true);
  });

  it('refuses a path outside by its text', async () => {
    expect(await galleryGuard(() => root)(join(base(), 'secret.txt'))).toBe(false);
    expect(await galleryGuard(() => root)(join(root, '..', 'secret.txt'))).toBe(false);
  });

  it('refuses a symlink inside the gallery pointing out of it, file or folder', async () => {
    const guard = galleryGuard(() => root);
    expect(await guard(join(root, 'task', 'link.png'))).toBe(false);
    expect(await guard(join(root, 'escape', 'secret.txt'))).toBe(false);
  });

  it('lets a missing file through on its text (the action reports it missing)', async () => {
    expect(await galleryGuard(() => root)(join(root, 'task', 'gone.png'))).toBe(true);
  });

  it('follows the gallery folder when it changes', async () => {
    let current = root;
    const guard = galleryGuard(() => current);
    expect(await guard(join(root, 'task', 'a.png'))).toBe(true);
    current = join(base(), 'elsewhere');
    expect(await guard(join(root, 'task', 'a.png'))).toBe(false);
  });

  it('the root itself only when allowed', async () => {
    expect(await galleryGuard(() => root)(root)).toBe(false);
    expect(await galleryGuard(() => root, { allowRoot: true })(root)).toBe(true);
  });
});
