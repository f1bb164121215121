/**
 * key-echo-views.ts decodes an echo of the key with the shared tables where they serve: XML's
 * five entities (shared/text/entities.ts) among HTML's names for visible ASCII, and the control
 * characters (shared/text/control-characters.ts) among the characters that show nothing. A name
 * from the text is looked up in a Map, so Object's own property names decode to nothing (as every
 * name of no visible ASCII does: `&nbsp;` between a key's letters is a separator).
 */
import { describe, expect, it } from 'vitest';
import { rawView, unescaped, type View } from '../../../../electron/core/secrets/key-echo-views';
import { XML_ENTITIES } from '../../../../shared/text/entities';

const text = (view: View) => String.fromCharCode(...view.codes.subarray(0, view.length));
const decoded = (input: string) => text(unescaped(rawView(input)));

describe('the views of an echo', () => {
  it("decode XML's five entities and HTML's other names for visible ASCII", () => {
    for (const [name, character] of XML_ENTITIES)
      expect(decoded(`a&${name};b`)).toBe(`a${character}b`);
    expect(decoded('&period;&lpar;&VerticalLine;&AMP;&QUOT;')).toBe('.(|&"');
  });

  it("decode no name of Object's prototype", () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      // A name not of visible ASCII stands for no key character: dropped, as `&nbsp;` is.
      expect(decoded(`a&${name};b`)).toBe('ab');
    }
  });

  it('drop every control character (C0, DEL, C1) and the default-ignorables, and keep the rest', () => {
    const controls = [0x00, 0x09, 0x1b, 0x1f, 0x7f, 0x85, 0x9b, 0x9f].map((c) =>
      String.fromCharCode(c),
    );
    expect(text(rawView(`k${controls.join('e')}y\u200b\u00ad\u00a0~`))).toBe('keeeeeeey\u00a0~');
  });
});
