/**
 * The name "Save As…" suggests for an image: the start of its prompt, made safe as a file name
 * on every platform (shared/text/file-names.ts), with the image's own extension. The prompt may
 * be anyone's (an imported archive's, a shared template's): a name Windows reads as a device
 * (`con.x.png` is the console on Windows 10) or one holding invisible characters is never
 * suggested.
 */
import { extname } from 'node:path';
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../shared/text/control-characters';
import { windowsNameRule, withoutInvisibles } from '../../../shared/text/file-names';

const MAX_BASE_CHARS = 60;
const FALLBACK_BASE = 'Pictor image';
/** Forbidden on Windows or macOS, control characters, and what reorders the name as shown. */
const UNSAFE = anyOf(['<>:"/\\\\|?*', CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS], 'gu');

/**
 * `prompt` → `"A red fox in snow.png"`; the second image of a task gets ` 2`, and so on.
 * @param sourcePath the image file, for its extension (`.png`, `.jpg`, `.webp`).
 */
export function suggestedFileName(prompt: string, index: number, sourcePath: string): string {
  const ext = extname(sourcePath).toLowerCase() || '.png';
  // What shows as nothing is taken out, not made a space: `a\u200bb` is `ab` to a reader.
  let base = withoutInvisibles(prompt.normalize('NFKC').replace(UNSAFE, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(base); // code points: never split an emoji in half
  if (chars.length > MAX_BASE_CHARS) {
    const cut = chars.slice(0, MAX_BASE_CHARS).join('');
    const space = cut.lastIndexOf(' ');
    base = space > cut.length / 2 ? cut.slice(0, space) : cut;
  }
  // Windows drops trailing dots and spaces; a leading dot hides the file on macOS and Linux.
  base = base.replace(/^[.\s]+|[.\s]+$/g, '');
  if (base === '') base = FALLBACK_BASE;
  const suffix = index > 0 ? ` ${index + 1}` : '';
  // A device's name before the first dot (`CON`, `nul.tar`): `CON image.png`, `nul image.tar.png`.
  if (windowsNameRule(`${base}${suffix}${ext}`) === 'device') {
    base = base.replace(/^[^.]*/, (head) => `${head.trimEnd()} image`);
  }
  return `${base}${suffix}${ext}`;
}
