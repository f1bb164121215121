/**
 * Release notes from the feed, as short plain text for the page. The feed is not trusted: notes
 * may be HTML (GitHub releases), a list of per-version notes, or anything; the page shows text,
 * never markup.
 */
import { MAX_RELEASE_NOTES_CHARS } from '../../../shared/domain/update-state';
import { BIDI_CONTROLS, CONTROL_CHARACTERS, anyOf } from '../../../shared/text/control-characters';
import { HTML_TEXT_ENTITIES } from '../../../shared/text/entities';

function htmlToText(html: string): string {
  return html
    .replace(/<\s*(br|\/p|\/li|\/h[1-6]|\/div)\b[^>]*>/gi, '\n')
    .replace(/<\s*li\b[^>]*>/gi, '• ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d{1,6}|[a-z]{2,6});/gi, (entity, name: string) => {
      if (name.startsWith('#')) {
        const code = Number(name.slice(1));
        return code > 31 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      return HTML_TEXT_ENTITIES.get(name.toLowerCase()) ?? entity;
    });
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

const CONTROLS_AND_BIDI = anyOf([CONTROL_CHARACTERS, BIDI_CONTROLS], 'g');

/** Control characters (but newlines) and bidirectional formatting never reach the page. */
function withoutControls(text: string): string {
  return text.replace(CONTROLS_AND_BIDI, (char) => (char === '\n' ? char : ''));
}

/** Plain text of at most {@link MAX_RELEASE_NOTES_CHARS} characters, or `undefined` when empty. */
export function releaseNotesText(notes: unknown): string | undefined {
  const text = withoutControls(htmlToText(rawText(notes).slice(0, 100_000)))
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (text === '') return undefined;
  return text.length <= MAX_RELEASE_NOTES_CHARS
    ? text
    : `${text.slice(0, MAX_RELEASE_NOTES_CHARS - 1).trimEnd()}…`;
}
