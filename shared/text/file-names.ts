/**
 * What makes a file name unsafe to hand to a disk or a person, whatever disk it ends on: names
 * travel (an archive made on Linux opens on Windows, a gallery folder moves to a USB stick, a
 * name suggested here is saved anywhere), so the rules are those of every platform at once, and
 * need no platform to be judged (the tests run them on Linux).
 *
 * Windows reads a name differently from what it spells when the part before its first dot, spaces
 * at its end dropped, is a device (`CON`, `nul.tar.gz`, `CON .png`, `CONIN$`, `COM¹`: the console
 * or a port is opened, not a file), when it holds `<>:"|?*` (`a:b` writes the stream `b` of `a`)
 * or a control character, and when it ends in a dot or a space (dropped: `a.` is `a`). The rule
 * is the one Python's `os.path.isreserved` (3.13) applies, on the side of caution across Windows
 * versions (Windows 11 no longer reads `CON.txt` as the console; Windows 10 does).
 *
 * Invisible characters (format characters and Unicode's Default_Ignorable_Code_Point: zero-width
 * ones, soft hyphen, Hangul fillers, variation selectors, tag characters…) make two names that show
 * alike and are not, or a name that shows as nothing; but for those a word a person sees is made
 * of (an emoji's joiner and presentation selector, `❤️`, `👩‍🔬`, a flag's tag letters, a Persian
 * half space): the one rule of a user's word, `invisibleInWords` (control-characters.ts), the
 * rule tags and board names follow too.
 *
 * Where a name is looked up on the disk it is on, what that disk takes for one name matters: APFS,
 * HFS+ and NTFS fold case (and the first two Unicode form), so that one is a function of the
 * platform (`foldsNames`, `foldedName`), run here for every platform too.
 */
import { C0_CONTROLS, anyOf, invisibleInWords } from './control-characters';

/** Why Windows would read `segment` (one name, no `/`) differently from what it spells. */
export type WindowsNameRule = 'device' | 'character' | 'ending';

const DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;
const WINDOWS_CHARACTER = anyOf(['<>:"|?*\\\\/', C0_CONTROLS]);

/** The rule `segment` breaks on Windows, or null (see the file's comment). */
export function windowsNameRule(segment: string): WindowsNameRule | null {
  if (/[. ]$/.test(segment) && segment !== '.' && segment !== '..') return 'ending';
  if (WINDOWS_CHARACTER.test(segment)) return 'character';
  const head = segment.split('.', 1)[0] ?? '';
  return DEVICE.test(head.replace(/ +$/, '')) ? 'device' : null;
}

/** Whether `text` holds an invisible character that is not part of a word (the file's comment). */
export function hasInvisible(text: string): boolean {
  return invisibleInWords().test(text);
}

/** `text` without its invisible characters (see the file's comment). */
export function withoutInvisibles(text: string): string {
  return text.replace(invisibleInWords('gu'), '');
}

/**
 * `name` as a disk that folds case and Unicode form compares it (APFS, HFS+, NTFS): NFC, then each
 * character upper- then lower-cased, so a final sigma (`aς`) meets `aσ` as those disks have it,
 * which lower-casing the whole name does not. Folding more than a disk does (`ß` meets `ss`) only
 * makes more names one.
 */
export function foldedName(name: string): string {
  return Array.from(name.normalize('NFC'), (c) => c.toUpperCase().toLowerCase()).join('');
}

/**
 * Whether the disks `platform` keeps a gallery on by default (APFS and HFS+ on macOS, NTFS on
 * Windows) take two names that differ only in case or Unicode form for one file.
 */
export function foldsNames(platform: NodeJS.Platform): boolean {
  return platform === 'darwin' || platform === 'win32';
}
