/**
 * HTML's named entities for the characters a key may hold, for key-echo-views.ts's unescaping.
 */
import { XML_ENTITIES } from '../../../shared/text/entities';

/**
 * HTML's names for the visible ASCII a key may hold (the rest of HTML's named entities stand for
 * characters a key cannot contain). Wider than what Pictor reads text with (shared/text/
 * entities.ts: XML's five and the no-break space): a server may echo the key with any of HTML's
 * names, so every one of them for a character a key holds is decoded here; XML's five come from
 * the shared table. A Map: a name from the text never reaches a prototype property
 * (`&constructor;`).
 */
export const NAMED: ReadonlyMap<string, number> = new Map([
  ...[...XML_ENTITIES].map(([name, text]) => [name, text.charCodeAt(0)] as const),
  ['excl', 33],
  ['QUOT', 34],
  ['num', 35],
  ['dollar', 36],
  ['percnt', 37],
  ['AMP', 38],
  ['lpar', 40],
  ['rpar', 41],
  ['ast', 42],
  ['midast', 42],
  ['plus', 43],
  ['comma', 44],
  ['period', 46],
  ['sol', 47],
  ['colon', 58],
  ['semi', 59],
  ['LT', 60],
  ['equals', 61],
  ['GT', 62],
  ['quest', 63],
  ['commat', 64],
  ['lsqb', 91],
  ['lbrack', 91],
  ['bsol', 92],
  ['rsqb', 93],
  ['rbrack', 93],
  ['Hat', 94],
  ['lowbar', 95],
  ['UnderBar', 95],
  ['grave', 96],
  ['DiacriticalGrave', 96],
  ['lcub', 123],
  ['lbrace', 123],
  ['verbar', 124],
  ['vert', 124],
  ['VerticalLine', 124],
  ['rcub', 125],
  ['rbrace', 125],
]);
