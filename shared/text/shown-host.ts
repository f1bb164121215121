/**
 * A host as Pictor names it to a person deciding where a key, a request or an image goes: one
 * home for main's sentences (core/service key-binding.ts) and the window's service names
 * (shared/domain/service-name.ts).
 *
 * An international host reads in its own letters (`bücher.example`, `пример.рф`, `例え.jp`) only
 * when they cannot pass for another name: letters of one script (Latin with Han, kana or Hangul,
 * as Japanese, Chinese and Korean write; Latin with any other script but Cyrillic, Greek and
 * Armenian, whose letters copy Latin ones), a Cyrillic, Greek or Armenian name only under a
 * top-level name of its own script (`аррӏе.com`, all Cyrillic, would read "apple.com"), and none
 * of the Latin letters made to look like others (`ɑ`, `ı`, small capitals). Otherwise the whole
 * host stays in Punycode, as the URL parser writes it: unfamiliar, never a lie. Browsers decide
 * alike (Chromium's IDN display policy, Unicode TS #39's moderately restrictive profile).
 *
 * A long host is shown by its right end, the part that says whose it is (see SHOWN_HOST_CHARS).
 */
import { decodePunycode } from './punycode';

/**
 * The most of a host a sentence shows. Past it, the host's right end (`….attacker.example`):
 * a long name's start (`api.openai.com.…`) says what it wants to be read as, and would leave the
 * owner's name past the edge of a message box, a button or a truncated label. A DNS name runs to
 * 253 characters; 64 keep any registrable name and a few labels before it.
 */
const SHOWN_HOST_CHARS = 64;

/**
 * `host` within {@link SHOWN_HOST_CHARS}: whole labels from its right end after `….`, at least
 * two of them (the registrable name, whose owner is the key's reader), the second cut from its
 * left when it is that long (`…bbbb.example`).
 */
export function elidedHost(host: string): string {
  if (host.length <= SHOWN_HOST_CHARS) return host;
  const labels = host.split('.');
  let kept = labels.pop() ?? '';
  let whole = 1;
  for (let label = labels.pop(); label !== undefined; label = labels.pop()) {
    if (kept.length + label.length + 3 <= SHOWN_HOST_CHARS) {
      kept = `${label}.${kept}`;
      whole += 1;
    } else {
      if (whole < 2) return `…${`${label}.${kept}`.slice(-(SHOWN_HOST_CHARS - 1))}`;
      break;
    }
  }
  return `….${kept}`;
}

/** Scripts a host may be written in (Unicode TS #31's recommended scripts that DNS names use). */
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Georgian',
  'Hangul',
  'Ethiopic',
  'Khmer',
  'Han',
  'Hiragana',
  'Katakana',
  'Bopomofo',
] as const;
type Script = (typeof SCRIPTS)[number];
/**
 * A test of each script, built on first use: the Script_Extensions classes make V8 build their
 * ranges from ICU's tables, which a command that shows no host written in other letters than
 * ASCII (`pictor list`) paid at start (with the rule of a user's word built at load, 8 % of its
 * instructions).
 */
let inScript: readonly (readonly [Script, RegExp])[] | null = null;
function scriptTests(): readonly (readonly [Script, RegExp])[] {
  inScript ??= SCRIPTS.map((script) => [script, new RegExp(`^\\p{scx=${script}}$`, 'u')] as const);
  return inScript;
}

/** Scripts whose letters copy Latin ones: never mixed with Latin, alone only under their own TLD. */
const LATIN_TWINS: ReadonlySet<Script> = new Set(['Cyrillic', 'Greek', 'Armenian']);

/** The ways of writing one label: a script alone, or with Latin, or as East Asian names mix. */
const WRITING_SYSTEMS: readonly (readonly Script[])[] = [
  ...SCRIPTS.map((script) => [script]),
  ...SCRIPTS.filter((script) => script !== 'Latin' && !LATIN_TWINS.has(script)).map((script) => [
    'Latin' as const,
    script,
  ]),
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

/**
 * Latin letters drawn like other Latin letters or signs: dotless i and j, kra, long s, the click
 * letters (`ǀ` `ǃ`), IPA (`ɑ` `ɡ`), phonetic small capitals, Latin Extended-D and -E.
 */
const LATIN_LOOKALIKES =
  /[\u0131\u0237\u0138\u017f\u01c0-\u01c3\u0250-\u02af\u1d00-\u1dbf\ua720-\ua7ff\uab30-\uab6f]/u;
/** What any script's name may hold besides letters: ASCII digits and the hyphen, combining marks. */
const NEUTRAL = /^[0-9-]$|^\p{M}$/u;

/** The scripts a label's letters are written in, each letter's possible ones; null when not a letter. */
function letterScripts(label: string): Script[][] | null {
  const letters: Script[][] = [];
  for (const char of label) {
    if (NEUTRAL.test(char)) continue;
    const scripts = scriptTests()
      .filter(([, test]) => test.test(char))
      .map(([script]) => script);
    if (scripts.length === 0) return null;
    letters.push(scripts);
  }
  return letters;
}

/** The one script every letter of `label` can be read in, or undefined when there is none. */
function soleScript(label: string): Script | undefined {
  const letters = letterScripts(label);
  return SCRIPTS.find((script) => letters?.every((scripts) => scripts.includes(script)));
}

/** True when `label` (decoded) cannot pass for another name under `tld` (decoded). */
function safeLabel(label: string, tld: string): boolean {
  if (label.normalize('NFC') !== label || LATIN_LOOKALIKES.test(label)) return false;
  const letters = letterScripts(label);
  if (letters === null) return false;
  const system = WRITING_SYSTEMS.find((scripts) =>
    letters.every((possible) => possible.some((script) => scripts.includes(script))),
  );
  if (system === undefined) return false;
  const [only] = system;
  if (system.length > 1 || only === undefined || !LATIN_TWINS.has(only)) return true;
  return soleScript(tld) === only;
}

/**
 * `host` (as the URL parser writes it: lower case, international labels as `xn--`) in its own
 * letters when every label of it is safe to show so, else as it is.
 */
export function readableHost(host: string): string {
  const labels = host.split('.');
  if (!labels.some((label) => label.startsWith('xn--'))) return host;
  const decoded = labels.map((label) =>
    label.startsWith('xn--') ? decodePunycode(label.slice(4)) : label,
  );
  if (decoded.some((label) => label === null)) return host;
  const readable = decoded as string[];
  const tld = readable.findLast((label) => label !== '') ?? '';
  return readable.every((label) => label === '' || safeLabel(label, tld))
    ? readable.join('.')
    : host;
}
