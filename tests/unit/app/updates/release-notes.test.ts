/** Release notes from a hostile feed, as short plain text. */
import { describe, expect, it } from 'vitest';
import { MAX_RELEASE_NOTES_CHARS } from '../../../../shared/domain/update-state';
import { releaseNotesText } from '../../../../electron/app/updates/release-notes';

describe('releaseNotesText', () => {
  it('turns GitHub-style HTML into text with no markup', () => {
    expect(
      releaseNotesText(
        '<h2>New</h2><ul><li>Faster &amp; <b>safer</b></li><li>A &lt;fix&gt;</li></ul><script>alert(1)</script>',
      ),
    ).toBe('New\n• Faster & safer\n• A <fix>\nalert(1)');
  });

  it('joins per-version notes and ignores what is not text', () => {
    expect(
      releaseNotesText([
        { version: '0.3.0', note: 'Three' },
        { version: 2, note: 'Two' },
        { note: { evil: true } },
        null,
      ]),
    ).toBe('0.3.0\nThree\n\nTwo');
  });

  it('shows control characters and bidirectional overrides as U+FFFD, keeps newlines', () => {
    expect(releaseNotesText('a\u0000b\u202ec\u2066d\ne\u0007')).toBe(
      'a\ufffdb\ufffdc\ufffdd\ne\ufffd',
    );
  });

  it('never ends a shortened note on half a surrogate pair', () => {
    const notes = `${'a'.repeat(MAX_RELEASE_NOTES_CHARS - 2)}\u{1f600}${'b'.repeat(10)}`;
    const shown = releaseNotesText(notes) ?? '';
    expect(shown).toBe(`${'a'.repeat(MAX_RELEASE_NOTES_CHARS - 2)}…`);
    expect(shown.length).toBeLessThanOrEqual(MAX_RELEASE_NOTES_CHARS);
  });

  it('shortens long notes and gives nothing for empty ones', () => {
    const long = releaseNotesText('word '.repeat(10_000)) ?? '';
    expect(long.length).toBeLessThanOrEqual(MAX_RELEASE_NOTES_CHARS);
    expect(long.endsWith('…')).toBe(true);
    expect(releaseNotesText('  <p> </p> ')).toBeUndefined();
    expect(releaseNotesText(undefined)).toBeUndefined();
    expect(releaseNotesText(42)).toBeUndefined();
  });
});
