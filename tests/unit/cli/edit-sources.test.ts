/** A mask's convention read from its PNG header: an alpha channel is alpha-edit, none white-edit. */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { maskConventionOf } from '../../../electron/cli/edit-sources';

const raw = (channels: 1 | 2 | 3 | 4) => ({ raw: { width: 8, height: 6, channels } });

describe('maskConventionOf', () => {
  it('reads RGBA and grey + alpha PNGs as alpha-edit', async () => {
    const rgba = await sharp(Buffer.alloc(8 * 6 * 4, 255), raw(4))
      .png()
      .toBuffer();
    const greyAlpha = await sharp(Buffer.alloc(8 * 6 * 2, 255), raw(2))
      .png()
      .toBuffer();
    expect(maskConventionOf(rgba)).toBe('alpha-edit');
    expect(maskConventionOf(greyAlpha)).toBe('alpha-edit');
  });

  it('reads greyscale and RGB PNGs as white-edit', async () => {
    const grey = await sharp(Buffer.alloc(8 * 6, 255), raw(1))
      .png()
      .toBuffer();
    const rgb = await sharp(Buffer.alloc(8 * 6 * 3, 0), raw(3))
      .png()
      .toBuffer();
    expect(maskConventionOf(grey)).toBe('white-edit');
    expect(maskConventionOf(rgb)).toBe('white-edit');
  });

  it('reads a palette PNG by whether it has transparency', async () => {
    const opaque = await sharp(Buffer.alloc(8 * 6 * 3, 0), raw(3))
      .png({ palette: true })
      .toBuffer();
    const clear = Buffer.alloc(8 * 6 * 4, 0);
    for (let at = 0; at < clear.length / 2; at += 4) clear.fill(255, at, at + 4);
    const transparent = await sharp(clear, raw(4)).png({ palette: true }).toBuffer();
    expect(opaque[25]).toBe(3);
    expect(transparent[25]).toBe(3);
    expect(maskConventionOf(opaque)).toBe('white-edit');
    expect(maskConventionOf(transparent)).toBe('alpha-edit');
  });

  it('is null for what is not a PNG', async () => {
    const jpeg = await sharp(Buffer.alloc(8 * 6 * 3, 0), raw(3))
      .jpeg()
      .toBuffer();
    expect(maskConventionOf(jpeg)).toBeNull();
    expect(maskConventionOf(new Uint8Array(10))).toBeNull();
  });
});
