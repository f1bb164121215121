/**
 * The rpm's Fedora is pinned, and its leg fails on the day that release leaves support, saying
 * what to change; a release that does not say when its support ends fails too.
 */
import { describe, expect, it } from 'vitest';
import { FEDORA_IMAGE, fedoraSupport } from '../../e2e/packaged/fedora-support';

const OS_RELEASE = [
  'NAME="Fedora Linux"',
  'VERSION="44 (Container Image)"',
  'ID=fedora',
  'VERSION_ID=44',
  'PRETTY_NAME="Fedora Linux 44 (Container Image)"',
  'SUPPORT_END=2027-05-19',
].join('\n');

describe('the rpm’s Fedora', () => {
  it('is a pinned release, not one that floats', () => {
    expect(FEDORA_IMAGE).toMatch(/^fedora:\d+$/);
  });

  it('passes while its release is supported, its last day included', () => {
    expect(fedoraSupport(OS_RELEASE, new Date('2026-11-25T12:00:00Z'))).toEqual({
      ok: true,
      line: 'Fedora Linux 44 (Container Image) is supported until 2027-05-19',
    });
    expect(fedoraSupport(OS_RELEASE, new Date('2027-05-19T23:59:00Z')).ok).toBe(true);
  });

  it('fails the day after its support ended, naming what to move', () => {
    const verdict = fedoraSupport(OS_RELEASE, new Date('2027-05-20T00:00:00Z'));
    expect(verdict).toEqual({
      ok: false,
      problem: expect.stringMatching(
        /^Fedora Linux 44 \(Container Image\) left support on 2027-05-19: move FEDORA_RELEASE/,
      ),
    });
  });

  it.each([
    ['no SUPPORT_END', OS_RELEASE.replace(/^SUPPORT_END=.*$/m, '')],
    ['a SUPPORT_END that is no date', OS_RELEASE.replace('2027-05-19', 'soon')],
  ])('fails a release with %s', (_what, text) => {
    expect(fedoraSupport(text, new Date('2026-11-25')).ok).toBe(false);
  });
});
