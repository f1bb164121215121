/**
 * The name "Save As…" suggests for an image: the start of its prompt, made safe as a file name
 * on every platform, with the image's own extension.
 */
import { extname } from 'node:path';
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../shared/text/control-characters';

const MAX_BASE_CHARS = 60;
const FALLBACK_BASE = 'Pictor image';
/** Names Windows reserves for devices, whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
/** Forbidden on Windows or macOS, control characters, and what reorders the name as shown. */
const UNSAFE = anyOf(['<>:"/\\\\|?*', CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS], 'g');

/**
 * `prompt` → `"A red fox in snow.png"`; the second image of a task gets ` 2`, and so on.
 * @param sourcePath the image file, for its extension (`.png`, `.jpg`, `.webp`).
 */
export function suggestedFileName(prompt: string, index: number, sourcePath: string): string {
  const ext = extname(sourcePath).toLowerCase() || '.png';
  let base = prompt.normalize('NFKC').replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(base); // code points: never split an emoji in half
  if (chars.length > MAX_BASE_CHARS) {
    const cut = chars.slice(0, MAX_BASE_CHARS).join('');
    const space = cut.lastIndexOf(' ');
    base = space > cut.length / 2 ? cut.slice(0, space) : cut;
  }
  // Windows drops trailing dots and spaces; a leading dot hides the file on macOS and Linux.
  base = base.replace(/^[.\s]+|[.\s]+$/g, '');
  if (base === '') base = FALLBACK_BASE;
  if (RESERVED.test(base)) base = `${base} image`;
  const suffix = index > 0 ? ` ${index + 1}` : '';
  return `${base}${suffix}${ext}`;
}
