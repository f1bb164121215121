/**
 * The empty-value check of a catalogue (empty-values.test.ts): each message with each of its
 * plain values empty in turn (or only spaces) must show the catalogue's word for none where the
 * value goes, and no gap an empty value spliced in as it is leaves.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

type Values = Record<string, string | number>;

/** A value for each of the message's arguments: text for a plain one, what the others take. */
function valuesOf(message: string): { plain: string[]; values: Values } {
  const plain = new Set<string>();
  const values: Values = {};
  const walk = (elements: MessageFormatElement[]): void => {
    for (const element of elements) {
      if (element.type === TYPE.argument) {
        plain.add(element.value);
        values[element.value] ??= `v-${element.value}`;
      } else if (element.type === TYPE.number) values[element.value] = 2;
      else if (element.type === TYPE.plural) {
        values[element.value] = 2;
        Object.values(element.options).forEach((option) => walk(option.value));
      } else if (element.type === TYPE.select) {
        values[element.value] ??= 'other';
        Object.values(element.options).forEach((option) => walk(option.value));
      } else if (element.type === TYPE.tag) walk(element.children);
    }
  };
  walk(parse(message, { ignoreTag: true }));
  // A plain argument also chosen on by a select keeps a value the select takes.
  return { plain: [...plain].filter((name) => typeof values[name] === 'string'), values };
}

/** Two spaces, a space before a stop, a space at an end, empty quotes or brackets. */
const GAPS = [/ {2}/, / [.,;:!?)](?!\S)/, /^ /, / $/, /“”|‘’|«»|„“|""|\(\)|「」|【】/];

/**
 * The messages of `english` (their shapes) that show a gap, or not `none`, with a value empty,
 * as `text` formats them; and how many values were tried. A gap the message has with every
 * value filled is its own (French spaces before a colon), not one.
 */
export function emptyValueGaps(
  english: Readonly<Record<string, string>>,
  text: (key: string, values: Values) => string,
  none: string,
): { gaps: string[]; tried: number } {
  const gaps: string[] = [];
  let tried = 0;
  for (const [key, message] of Object.entries(english)) {
    const { plain, values } = valuesOf(message);
    const filled = text(key, values);
    const own = GAPS.filter((gap) => gap.test(filled));
    // An argument inside a select's branch the values did not choose is not shown at all.
    for (const name of plain.filter((shown) => filled.includes(`v-${shown}`))) {
      const shown = text(key, { ...values, [name]: tried % 2 ? '' : '  ' });
      tried += 1;
      const left = GAPS.filter((gap) => !own.includes(gap) && gap.test(shown));
      if (left.length > 0 || !shown.includes(none)) gaps.push(`${key} {${name}}: ${shown}`);
    }
  }
  return { gaps, tried };
}
