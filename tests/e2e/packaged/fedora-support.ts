/**
 * The Fedora release the rpm is tested on, and whether it is still supported. `fedora:latest`
 * floats: a new release changes the leg under the project's feet (Fedora 45's rpm refuses
 * unsigned packages). So the image is pinned, and the leg fails, saying what to do, on the day
 * that release leaves support (its `/etc/os-release` says when: `SUPPORT_END`), before dnf finds
 * its repositories gone to the archive. Pure, unit-tested (tests/unit/e2e/fedora-support.test.ts).
 */

/** The pinned release (`fedora:<n>`); PICTOR_FEDORA_IMAGE picks another for one run. */
export const FEDORA_RELEASE = 44;
export const FEDORA_IMAGE = `fedora:${FEDORA_RELEASE}`;

export type SupportVerdict =
  { readonly ok: true; readonly line: string } | { readonly ok: false; readonly problem: string };

/** A field of an os-release file (`KEY=value` or `KEY="value"`), or null. */
function field(osRelease: string, key: string): string | null {
  const match = new RegExp(`^${key}=(?:"([^"]*)"|(.*))$`, 'm').exec(osRelease);
  return match ? (match[1] ?? match[2] ?? '').trim() : null;
}

/** Whether the release `osRelease` describes is still supported on `today` (UTC dates). */
export function fedoraSupport(osRelease: string, today: Date): SupportVerdict {
  const name = field(osRelease, 'PRETTY_NAME') ?? 'this Fedora';
  const end = field(osRelease, 'SUPPORT_END');
  if (!end || !/^\d{4}-\d{2}-\d{2}$/.test(end))
    return {
      ok: false,
      problem: `${name} does not say when its support ends (no SUPPORT_END in /etc/os-release): pin a supported release in tests/e2e/packaged/fedora-support.ts`,
    };
  const day = today.toISOString().slice(0, 10);
  if (day > end)
    return {
      ok: false,
      problem: `${name} left support on ${end}: move FEDORA_RELEASE in tests/e2e/packaged/fedora-support.ts to a supported release`,
    };
  return { ok: true, line: `${name} is supported until ${end}` };
}
