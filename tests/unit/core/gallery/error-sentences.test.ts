/**
 * The gallery's failures carry catalogue sentences (the translated error messages): real downloads from a loopback
 * image host, real crafted paths and links, real missing images. Each failure's sentence is an
 * `error.gallery.*` key whose English text is the error's message, and the pseudo-locale words it
 * differently while keeping every value: the words come from the catalogue, not the code.
 */
import { readFile, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContained, UnsafePathError } from '../../../../electron/core/fs/contained-fs';
import {
  lastAttempt,
  retry,
  type FailedOutcome,
} from '../../../../electron/core/download/download-outcome';
import { diskParams } from '../../../../electron/core/fs/error-codes';
import { findImage, GalleryImageError } from '../../../../electron/core/gallery/gallery-images';
import { GalleryPathError, resolveInside } from '../../../../electron/core/fs/gallery-path';
import { refuseTarget } from '../../../../electron/core/library/relocate';
import { localeInfo } from '../../../../shared/domain/locales';
import { MainCatalogue } from '../../../../shared/i18n/main-catalogue';
import { englishText, sentence, type Sentence } from '../../../../shared/i18n/sentence';
import { expectState, useDownloadFixture } from '../download/download-fixture';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const f = useDownloadFixture();
const pseudo = new MainCatalogue(localeInfo('en-XA')!, undefined);

/** The checks every gallery sentence passes; `values` must survive translation. */
function expectCatalogued(said: Sentence | undefined, english: string, values: string[] = []) {
  expect(said).toBeDefined();
  expect(said!.key).toMatch(/^error\.gallery\.[a-zA-Z]+$/);
  expect(englishText(said!)).toBe(english);
  const translated = pseudo.text(said!.key, said!.params);
  expect(translated).not.toBe(english);
  for (const value of values) {
    expect(english).toContain(value);
    expect(translated).toContain(value);
  }
}

function expectOutcome(outcome: FailedOutcome, values: string[] = []) {
  expectCatalogued(outcome.errorSentence, outcome.error, values);
}

async function caught(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('download failures on a real image host', () => {
  it('a dead address (404) is an expired sentence with its status', async () => {
    const url = f.server.route('/gone', (_req, res) => res.writeHead(404).end('gone'));
    expectOutcome(expectState((await f.download(url)).outcome, 'expired'), ['404']);
  });

  it('a 503 is a retry sentence; after the last attempt it says when Pictor tries again', async () => {
    const url = f.server.route('/later', (_req, res) => res.writeHead(503).end('later'));
    const outcome = expectState((await f.download(url)).outcome, 'retry');
    expectOutcome(outcome, ['503']);
    expect(outcome.error).toMatch(/Pictor will try again\.$/);
    const last = lastAttempt(outcome);
    expectCatalogued(last.errorSentence, last.error, ['503']);
    expect(last.error).toBe(
      'The image could not be downloaded: the server answered 503. Pictor will try again at the next start, or when you choose Retry.',
    );
  });

  it('an HTML page instead of an image is named in the sentence', async () => {
    const url = f.server.route('/html', (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'image/png' })
        .end(`<!doctype html><html><body>${'x'.repeat(600)}</body></html>`),
    );
    const outcome = expectState((await f.download(url)).outcome, 'invalid');
    expectOutcome(outcome);
    expect(outcome.error).toBe(
      'The image server sent an HTML page instead of a PNG, JPEG or WebP image.',
    );
  });

  it('a redirect with nowhere to go, and an image with no address', async () => {
    const url = f.server.route('/nowhere', (_req, res) => res.writeHead(302).end());
    expectOutcome(expectState((await f.download(url)).outcome, 'invalid'));
    expectOutcome(expectState((await f.download(null)).outcome, 'invalid'));
  });

  it('a full disk is worded with its code, and an unknown code keeps only the code', () => {
    const full = retry(
      sentence(
        'error.gallery.downloadNotWritten',
        diskParams(Object.assign(new Error('write'), { code: 'ENOSPC' })),
      ),
    );
    expectOutcome(full, ['ENOSPC']);
    expect(full.error).toBe(
      'The image could not be downloaded: the image could not be written to the gallery folder because the disk is full (no space left) (ENOSPC). Pictor will try again.',
    );
    const odd = retry(
      sentence(
        'error.gallery.downloadNotWritten',
        diskParams(Object.assign(new Error('write'), { code: 'EIO' })),
      ),
    );
    expect(odd.error).toBe(
      'The image could not be downloaded: the image could not be written to the gallery folder (EIO). Pictor will try again.',
    );
  });
});

describe('paths, links and images', () => {
  it('a crafted path that leaves the gallery', async () => {
    const error = await caught(() => resolveInside(f.root, 'task/../../etc/passwd'));
    expect(error).toBeInstanceOf(GalleryPathError);
    expectCatalogued((error as GalleryPathError).sentence, (error as Error).message);
  });

  it('a link on the way is refused with its path in the sentence', async () => {
    const outside = await tempFolder('gallery');
    await symlink(outside, join(f.root, 'linked'));
    const error = await caught(() => checkContained(f.root, join(f.root, 'linked', 'x.png')));
    await removeFolder(outside);
    expect(error).toBeInstanceOf(UnsafePathError);
    const refused = error as UnsafePathError;
    expectCatalogued(refused.sentence, refused.message, [join(f.root, 'linked')]);
  });

  it('a gallery move into the current gallery is refused', async () => {
    const error = await caught(() =>
      refuseTarget(f.root, join(f.root, 'inside'), { home: '/home/nobody', platform: 'linux' }),
    );
    expect(error).toBeInstanceOf(GalleryPathError);
    expectCatalogued((error as GalleryPathError).sentence, (error as Error).message);
  });

  it('an image that is not in the history', async () => {
    const error = await caught(() =>
      findImage({ get: () => undefined }, { localId: 'missing', index: 0 }),
    );
    expect(error).toBeInstanceOf(GalleryImageError);
    expect((error as GalleryImageError).code).toBe('not_found');
    expectCatalogued((error as GalleryImageError).sentence, (error as Error).message);
  });
});

describe('the gallery code words its errors only through the catalogue', () => {
  const ERRORS =
    /new (GalleryPathError|GalleryImageError|GalleryMoveError|UnsafePathError|FolderChangeError)\(\s*[`'"]/;
  const OUTCOMES = /\b(invalid|retry)\(\s*[`'"]/;

  async function sources(folder: string): Promise<string[]> {
    const entries = await readdir(folder, { withFileTypes: true, recursive: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => join(entry.parentPath, entry.name));
  }

  it('no error of the area and no download outcome is made from literal text', async () => {
    const files = [
      ...(await sources('electron/core/gallery')),
      'electron/core/fs/contained-fs.ts',
      'electron/ipc/library-handlers.ts',
      'electron/adapters/shell-actions.ts',
    ];
    expect(files.length).toBeGreaterThan(20);
    const offenders: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      if (ERRORS.test(text) || OUTCOMES.test(text)) offenders.push(file);
      if (file.endsWith('shell-actions.ts') && /\bfail\(\s*'[a-z_]+',\s*[`'"]/.test(text))
        offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });
});
