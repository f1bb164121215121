/**
 * Characters that show nothing, for the key-echo views (key-echo-views.ts): controls (NUL between
 * the letters of UTF-16 bytes), and Unicode's default-ignorable code points (zero-width spaces and
 * joiners, U+2060, U+FEFF, soft hyphen, bidi marks, variation selectors). A table, so the check
 * per character is one lookup; made on first use (a regular expression run over every UTF-16 code
 * unit, about 5 ms of CPU), not when the module loads: a one-record CLI command loads the views
 * with the history and may scrub nothing (`npm run bench -- --only cli-start`).
 */
import { CONTROL_CHARACTERS, anyOf } from '../../../shared/text/control-characters';

let table: Uint8Array | undefined;

/** 1 at each UTF-16 code unit that shows nothing (lone surrogates: 0). */
export function invisibleTable(): Uint8Array {
  if (table !== undefined) return table;
  const made = new Uint8Array(0x10000);
  const pattern = anyOf([CONTROL_CHARACTERS, '\\p{Default_Ignorable_Code_Point}'], 'u');
  for (let code = 0; code < 0x10000; code += 1) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    if (pattern.test(String.fromCharCode(code))) made[code] = 1;
  }
  table = made;
  return made;
}
