import { join, sep } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Gallery } from '../../../../electron/core/gallery/gallery';
import { GalleryPathError } from '../../../../electron/core/fs/gallery-path';
import { slugify } from '../../../../electron/core/gallery/gallery-layout';
import { makeRecord } from '../../../support/gallery-helpers';
import { galleryOnServer } from '../../../support/gallery-with-intake';

const root = join(sep === '/' ? '/srv' : 'C:\\srv', 'gallery');
const { gallery } = galleryOnServer(root);
const FOLDER =
  /^\d{4}\/\d{2}\/\d{4}-\d{2}-\d{2}_\d{6}_[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?_[a-z0-9-]{1,8}$/;

function withPrompt(prompt: string) {
  return makeRecord([], { request: { prompt }, localId: '3F2A9C1E-77aa-4bbb-8ccc-1234567890ab' });
}

describe('folderFor', () => {
  it('builds YYYY/MM/YYYY-MM-DD_HHMMSS_<slug>_<id8> from the local creation time', () => {
    const createdAt = new Date(2025, 0, 9, 7, 3, 9).getTime();
    const record = makeRecord([], {
      createdAt,
      localId: '3f2a9c1e-1111-2222',
      request: { prompt: 'A Red Fox, in snow!' },
    });
    expect(gallery.folderFor(record)).toBe('2025/01/2025-01-09_070309_a-red-fox-in-snow_3f2a9c1e');
  });

  it('is deterministic and never uses the image URL', () => {
    const record = withPrompt('same prompt');
    const other = {
      ...record,
      images: [
        {
          index: 0,
          url: 'https://x/../../evil',
          state: 'pending' as const,
          attempts: 0,
          favourite: false,
        },
      ],
    };
    expect(gallery.folderFor(record)).toBe(gallery.folderFor(structuredClone(record)));
    expect(gallery.folderFor(other)).toBe(gallery.folderFor(record));
  });

  it.each([
    ['../../etc/passwd', 'etc-passwd'],
    ['a/b\\c//d', 'a-b-c-d'],
    ['Café crème brûlée', 'cafe-creme-brulee'],
    ['🎨🖼️ 🦊 fox', 'fox'],
    ['  --Hello--  ', 'hello'],
  ])('slugs %j as %j', (prompt, slug) => {
    expect(gallery.folderFor(withPrompt(prompt))).toMatch(new RegExp(`_${slug}_3f2a9c1e$`));
  });

  it.each(['🎨🖼️', '../..', '////', '日本語のプロンプト'])(
    'uses "untitled" when nothing is left of %j',
    (prompt) => {
      expect(gallery.folderFor(withPrompt(prompt))).toMatch(/_untitled_3f2a9c1e$/);
    },
  );

  it('cuts a very long prompt to 40 characters without a trailing dash', () => {
    const folder = gallery.folderFor(withPrompt(`${'word '.repeat(500)}end`));
    const slug = folder.split('_')[2]!;
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).toMatch(/^[a-z0-9-]+[a-z0-9]$/);
  });

  it('keeps odd local ids safe', () => {
    const record = makeRecord([], { localId: '../../../x' });
    expect(gallery.folderFor(record)).toMatch(/_x$/);
    expect(gallery.folderFor(makeRecord([], { localId: '💥' }))).toMatch(/_task$/);
  });

  it('always gives a safe folder inside the root, for any prompt and id', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1 }),
        fc.string({ minLength: 1 }),
        (prompt, localId) => {
          const folder = gallery.folderFor(makeRecord([], { request: { prompt }, localId }));
          expect(folder).toMatch(FOLDER);
          expect(gallery.resolve(folder).startsWith(root + sep)).toBe(true);
        },
      ),
    );
  });

  it('slugify keeps only [a-z0-9-] within the limit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const slug = slugify(text);
        expect(slug).toMatch(/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)?$/);
        expect(slug.length).toBeLessThanOrEqual(40);
      }),
    );
  });
});

describe('resolve', () => {
  it('resolves a root-relative path inside the root', () => {
    expect(gallery.resolve('2025/01/task/image-1.png')).toBe(
      join(root, '2025', '01', 'task', 'image-1.png'),
    );
    expect(gallery.resolve('./a/b.png')).toBe(join(root, 'a', 'b.png'));
  });

  it.each([
    '../x',
    '/etc/passwd',
    'a\\..\\b',
    'a/../../b',
    'a/../b',
    'a\0b',
    '',
    '..',
    'C:/Windows',
    'C:x',
    '//server/share',
  ])('refuses %j', (path) => {
    expect(() => gallery.resolve(path)).toThrow(GalleryPathError);
  });

  it('refuses a relative root', () => {
    expect(() => new Gallery({ root: 'relative/gallery' })).toThrow(GalleryPathError);
  });
});
