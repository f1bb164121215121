/**
 * The ICO and ICNS writers and the SVG adaptation of the icon generator, on small inputs.
 */
import { describe, expect, it } from 'vitest';
import { encodeIcns, encodeIco } from '../../electron/build/icon-containers';
import { adaptSvg } from '../../electron/build/make-icons';

const fakePng = (length: number, fill: number): Buffer => Buffer.alloc(length, fill);

describe('encodeIco', () => {
  it('writes the header, one directory entry per image and the data in order', () => {
    const ico = encodeIco([
      { size: 16, png: fakePng(5, 1) },
      { size: 256, png: fakePng(7, 2) },
    ]);
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 2]);
    // 16 px, then 256 px stored as 0 as the format requires.
    expect([ico[6], ico[7], ico[22], ico[23]]).toEqual([16, 16, 0, 0]);
    expect([ico.readUInt32LE(14), ico.readUInt32LE(18)]).toEqual([5, 38]);
    expect([ico.readUInt32LE(30), ico.readUInt32LE(34)]).toEqual([7, 43]);
    expect(ico.length).toBe(50);
    expect([...ico.subarray(38, 43)]).toEqual([1, 1, 1, 1, 1]);
    expect([...ico.subarray(43)]).toEqual([2, 2, 2, 2, 2, 2, 2]);
  });

  it('refuses an empty list and sizes the format cannot hold', () => {
    expect(() => encodeIco([])).toThrow(RangeError);
    expect(() => encodeIco([{ size: 512, png: fakePng(1, 0) }])).toThrow(/1 to 256/);
    expect(() => encodeIco([{ size: 0, png: fakePng(1, 0) }])).toThrow(/1 to 256/);
  });
});

describe('encodeIcns', () => {
  it('writes the magic, the total length and each element with its own length', () => {
    const icns = encodeIcns([
      { type: 'ic07', png: fakePng(3, 9) },
      { type: 'ic10', png: fakePng(4, 8) },
    ]);
    expect(icns.toString('latin1', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    expect(icns.length).toBe(8 + 11 + 12);
    expect([icns.toString('latin1', 8, 12), icns.readUInt32BE(12)]).toEqual(['ic07', 11]);
    expect([icns.toString('latin1', 19, 23), icns.readUInt32BE(23)]).toEqual(['ic10', 12]);
    expect([...icns.subarray(27)]).toEqual([8, 8, 8, 8]);
  });

  it('refuses an empty list', () => {
    expect(() => encodeIcns([])).toThrow(RangeError);
  });
});

describe('adaptSvg', () => {
  const svg =
    '<svg viewBox="0 0 1024 1024"><rect id="body"/><circle data-detail="true" r="1"/>' +
    '<use href="#s" data-detail="true"/></svg>';

  it('drops the detail elements below 48 px and keeps them from 48 px', () => {
    expect(adaptSvg(svg, 32, 'grid')).toBe('<svg viewBox="0 0 1024 1024"><rect id="body"/></svg>');
    expect(adaptSvg(svg, 48, 'grid')).toBe(svg);
  });

  it('crops to the body for the tight framing only', () => {
    expect(adaptSvg(svg, 512, 'tight')).toContain('viewBox="72 72 880 880"');
    expect(adaptSvg(svg, 512, 'grid')).toContain('viewBox="0 0 1024 1024"');
  });
});
