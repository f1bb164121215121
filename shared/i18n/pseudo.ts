/**
 * The pseudo-locale: every English message with its letters accented and padded about 40 %
 * longer, inside brackets. Placeholders, plural and select structure stay intact (the message is
 * rewritten through its syntax tree), so a screen in this locale shows which labels are cut off
 * when a translation runs long and which strings never went through the catalogue.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';

const ACCENTED: Readonly<Record<string, string>> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'đ',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'í',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ö',
  p: 'ƥ',
  q: 'ʠ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'û',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Á',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Đ',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Í',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ö',
  P: 'Ƥ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Û',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};

/** Accents a run of text and pads it by about 40 % of its letters. */
function pseudoText(text: string): string {
  let letters = 0;
  let out = '';
  for (const char of text) {
    const accented = ACCENTED[char];
    if (accented) letters += 1;
    out += accented ?? char;
  }
  return out + '~'.repeat(Math.ceil(letters * 0.4));
}

function pseudoElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: pseudoText(element.value) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options = Object.fromEntries(
        Object.entries(element.options).map(([selector, option]) => [
          selector,
          { ...option, value: pseudoElements(option.value) },
        ]),
      );
      return { ...element, options };
    }
    if (element.type === TYPE.tag) {
      return { ...element, children: pseudoElements(element.children) };
    }
    return element;
  });
}

/** One message in the pseudo-locale; a message that does not parse is returned bracketed as is. */
export function pseudoMessage(message: string): string {
  try {
    return `[${printAST(pseudoElements(parse(message, { ignoreTag: true })))}]`;
  } catch {
    return `[${message}]`;
  }
}

/** The pseudo-locale's catalogue, made from the English one. */
export function pseudoCatalogue(source: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).map(([key, message]) => [key, pseudoMessage(message)]),
  );
}
