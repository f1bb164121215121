/**
 * Release notes a hostile feed writes to steer or hide text in the update banner. The notes were
 * made plain text by dropping controls and bidi formatting, which left a zero-width space, a word
 * joiner, a BOM, tag characters and Hangul fillers as they were, read only decimal character
 * references (`&#x202E;` was shown as those eight characters, `&#8238;` reversed the line), and
 * dropped what it removed without a trace. Now each line follows the shown-value rule
 * (shared/text/shown-value.ts), the one every sentence a person reads follows: such a character,
 * written as itself, as `&#x…;` or `&#X…;`, or as `&#…;`, is U+FFFD at its place, one per
 * character; a reference to no character (past U+10FFFF, half a surrogate pair) too. The zero-width
 * joiner (emoji, Indic scripts) and the directional marks stay; line breaks stay line breaks.
 *
 * Through a real loopback feed, Pictor's checked channel-file reader, NsisUpdater and the update
 * service: the text is the state the page is sent.
 */
import { randomBytes } from 'node:crypto';
import { NsisUpdater } from 'electron-updater';
import { describe, expect, it } from 'vitest';
import { channelFile } from '../../integration/updates/update-feed';
import {
  rig,
  serveChannelFile,
  updaterFor,
  useUpdaterWorld,
} from '../../integration/updates/updater-rig';

const world = useUpdaterWorld();
const MARK = '\ufffd';

/** YAML double-quoted text whose every character outside printable ASCII is an escape. */
function yamlText(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/gu, (char) => {
    const code = char.codePointAt(0)!;
    return code > 0xffff
      ? `\\U${code.toString(16).padStart(8, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** The notes the service gives the page for a release whose notes are `notes`. */
async function shown(notes: string): Promise<string | undefined> {
  const bytes = randomBytes(1_000);
  const file = 'Pictor-Setup-0.2.0.exe';
  const yaml = channelFile({ version: '0.2.0', file, bytes }).replace(
    /\n$/,
    `\nreleaseNotes: ${yamlText(notes)}\n`,
  );
  serveChannelFile(world().feed, { body: yaml });
  const { service } = rig(
    await updaterFor(world(), new NsisUpdater()),
    { kind: 'install' },
    'notify',
  );
  const state = await service.checkNow();
  expect(state).toMatchObject({ status: 'available', version: '0.2.0' });
  return state.releaseNotes;
}

/** Characters that steer or hide text, by what they do. */
const STEERING: [string, number][] = [
  ['right-to-left override', 0x202e],
  ['left-to-right isolate', 0x2066],
  ['pop directional formatting', 0x202c],
  ['zero-width space', 0x200b],
  ['word joiner', 0x2060],
  ['byte order mark', 0xfeff],
  ['soft hyphen', 0x00ad],
  ['tag letter A', 0xe0041],
  ['cancel tag', 0xe007f],
  ['Hangul filler', 0x3164],
  ['escape', 0x1b],
  ['bell', 0x07],
  ['delete', 0x7f],
  ['control sequence introducer (C1)', 0x9b],
];

const spellings = (code: number): [string, string][] => [
  ['as itself', String.fromCodePoint(code)],
  ['as &#x…;', `&#x${code.toString(16)};`],
  ['as &#X…; upper case', `&#X${code.toString(16).toUpperCase()};`],
  ['as &#…;', `&#${String(code)};`],
];

describe('release notes that steer or hide text', () => {
  it.each(STEERING)('a %s, in every spelling, is shown as U+FFFD at its place', async (_, code) => {
    const written = spellings(code).map(([, spelt]) => `<li>gnp${spelt}exe</li>`);
    const notes = await shown(`<ul>${written.join('')}</ul>`);
    expect(notes).toBe(
      spellings(code)
        .map(() => `• gnp${MARK}exe`)
        .join('\n'),
    );
  });

  it('a reference to no character is U+FFFD', async () => {
    expect(await shown('a&#x110000;b&#xD800;c&#0;d&#99999999;e')).toBe(
      `a${MARK}b${MARK}c${MARK}d${MARK}e`,
    );
  });

  it('two steering characters are two marks: notes that differ by one never read the same', async () => {
    expect(await shown('v\u200b\u200b1&#x200B;')).toBe(`v${MARK}${MARK}1${MARK}`);
  });

  it('keeps the joiner, the directional marks, other scripts and the line breaks', async () => {
    const text = 'Arabic \u200fمرحبا\u200f; emoji \u{1f469}\u200d\u{1f4bb}; हिन्दी\u200c';
    expect(await shown(`${text}<br>next&#10;line\u2028last`)).toBe(`${text}\nnext\nline\nlast`);
  });
});
