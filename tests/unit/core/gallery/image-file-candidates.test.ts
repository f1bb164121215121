/**
 * The names rebuild accepts for an image's file (gallery-layout.ts `imageFileCandidates`): its
 * own name, then the `-restored-N` names Undo gives an image whose name was taken, and only those:
 * another index, another extension, a number out of Undo's range or a name with more around it
 * is not that image.
 */
import { describe, expect, it } from 'vitest';
import { imageFileCandidates } from '../../../../electron/core/gallery/gallery-layout';

const names = (present: string[], index = 0) =>
  imageFileCandidates(index, ['png', 'jpeg', 'webp'], new Set(present)).map((c) => c.name);

describe('imageFileCandidates', () => {
  it('lists the own name first, then restored names by their number', () => {
    expect(
      names(['image-1-restored-10.png', 'image-1-restored-2.webp', 'image-1.jpg', 'image-1.png']),
    ).toEqual(['image-1.png', 'image-1.jpg', 'image-1-restored-2.webp', 'image-1-restored-10.png']);
  });

  it('reads the kind from the extension', () => {
    expect(imageFileCandidates(1, ['png', 'jpeg'], new Set(['image-2-restored-1.jpg']))).toEqual([
      { kind: 'jpeg', name: 'image-2-restored-1.jpg' },
    ]);
  });

  it('takes no name that is not one Undo gives this image', () => {
    expect(
      names([
        'image-2-restored-1.png',
        'image-1-restored-0.png',
        'image-1-restored-101.png',
        'image-1-restored-01.png',
        'image-01-restored-1.png',
        'image-1-restored-1.png.exe',
        'image-1-restored-1.gif',
        'image-1-restored-1.xmp',
        'x-image-1-restored-1.png',
      ]),
    ).toEqual([]);
  });
});
