/**
 * Release notes from the feed, as short plain text for the page. The feed is not trusted: notes
 * may be HTML (GitHub releases), a list of per-version notes, or anything; the page shows text,
 * never markup. Each line is shown by the shown-value rule (shared/text/shown-value.ts): a
 * character that steers or hides text (a control, bidi formatting such as U+202E, a zero-width
 * space, a tag character), written as itself or as a character reference (`&#x202E;`,
 * `&#8238;`), is shown as U+FFFD, never silently dropped; only the line breaks stay.
 */
import { MAX_RELEASE_NOTES_CHARS } from '../../../shared/domain/update-state';
import { HTML_TEXT_ENTITIES } from '../../../shared/text/entities';
import { HIDDEN_MARK, shownValue } from '../../../shared/text/shown-value';

/** A numeric character reference's character; one that names none is the hidden mark. */
function referenced(digits: string): string {
  const code =
    digits[0] === 'x' || digits[0] === 'X' ? parseInt(digits.slice(1), 16) : Number(digits);
  return code <= 0x10ffff ? String.fromCodePoint(code) : HIDDEN_MARK;
}

function htmlToText(html: string): string {
  return html
    .replace(/<\s*(br|\/p|\/li|\/h[1-6]|\/div)\b[^>]*>/gi, '\n')
    .replace(/<\s*li\b[^>]*>/gi, '• ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#(?:\d{1,8}|x[0-9a-f]{1,7})|[a-z]{2,6});/gi, (entity, name: string) =>
      name.startsWith('#')
        ? referenced(name.slice(1))
        : (HTML_TEXT_ENTITIES.get(name.toLowerCase()) ?? entity),
    );
}

function rawText(notes: unknown): string {
  if (typeof notes === 'string') return notes;
  if (!Array.isArray(notes)) return '';
  return notes
    .slice(0, 50)
    .map((entry: unknown) => {
      const { version, note } = (entry ?? {}) as { version?: unknown; note?: unknown };
      const body = typeof note === 'string' ? note : '';
      return typeof version === 'string' ? `${version.slice(0, 64)}\n${body}` : body;
    })
    .join('\n\n');
}

/** Each line as shown-value.ts shows a value; the line breaks (any spelling) are kept. */
function shownLines(text: string): string {
  return text
    .split(/\r\n|[\n\r\u2028\u2029]/)
    .map((line) => shownValue(line).trimEnd())
    .join('\n');
}

/** Plain text of at most {@link MAX_RELEASE_NOTES_CHARS} characters, or `undefined` when empty. */
export function releaseNotesText(notes: unknown): string | undefined {
  const text = shownLines(htmlToText(rawText(notes).slice(0, 100_000)))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (text === '') return undefined;
  return text.length <= MAX_RELEASE_NOTES_CHARS
    ? text
    : `${text
        .slice(0, MAX_RELEASE_NOTES_CHARS - 1)
        .replace(/[\ud800-\udbff]$/, '')
        .trimEnd()}…`;
}
