/**
 * A gallery on a disk that folds case (APFS and HFS+ on macOS, NTFS on Windows): an image whose
 * name someone changed in case only (`IMAGE-1.PNG`, a copy through a tool that upper-cases 8.3
 * names) is the image there. Read by its exact name only, a rebuild found it missing and its
 * download again, renaming its new file to `image-1.png`, replaced that very file with whatever
 * the link served now. The names are judged by a pure function of the platform, run here for
 * macOS and Windows on Linux, whose disks keep both spellings apart.
 */
import { describe, expect, it } from 'vitest';
import { imageFileCandidates } from '../../../electron/core/gallery/gallery-layout';
import { foldedName } from '../../../shared/text/file-names';

const candidates = (platform: NodeJS.Platform, present: string[], index = 0) =>
  imageFileCandidates(index, ['png', 'jpeg', 'webp'], new Set(present), platform);

describe('the file of an image whose name changed in case', () => {
  it.each(['darwin', 'win32'] as const)('is found on %s, under the name it has', (platform) => {
    expect(candidates(platform, ['IMAGE-1.PNG'])).toEqual([{ kind: 'png', name: 'IMAGE-1.PNG' }]);
    expect(candidates(platform, ['Image-2.Jpg', 'pictor.json'], 1)).toEqual([
      { kind: 'jpeg', name: 'Image-2.Jpg' },
    ]);
    expect(candidates(platform, ['IMAGE-1-RESTORED-3.WEBP'])).toEqual([
      { kind: 'webp', name: 'IMAGE-1-RESTORED-3.WEBP' },
    ]);
  });

  it('is its own name first where a disk keeps both spellings', () => {
    expect(candidates('darwin', ['IMAGE-1.PNG', 'image-1.png'])).toEqual([
      { kind: 'png', name: 'image-1.png' },
    ]);
  });

  it('is not that image on Linux, whose disks keep the spellings apart', () => {
    expect(candidates('linux', ['IMAGE-1.PNG', 'Image-1-Restored-2.png'])).toEqual([]);
  });

  it('is still only a name Pictor gives, in any case', () => {
    const strays = ['IMAGE-01.PNG', 'X-IMAGE-1.PNG', 'IMAGE-1.PNG.EXE', 'IMAGE-1-RESTORED-0.PNG'];
    expect(candidates('darwin', strays)).toEqual([]);
  });
});

describe('names such a disk takes for one', () => {
  it.each([
    ['A.png', 'a.png'],
    ['aΣ', 'aσ'],
    ['aς', 'aσ'],
    ['\u212a', 'k'],
    ['Cafe\u0301', 'Café'],
    ['ǅ', 'ǆ'],
  ])('%j and %j fold to one', (a, b) => {
    expect(foldedName(a)).toBe(foldedName(b));
  });
});
