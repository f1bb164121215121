/**
 * Where a copy of Pictor that cannot update itself (an unsigned or ad-hoc signed macOS app, an
 * unsigned Windows build, a Linux deb or rpm: see update-capability.ts) sends the user for the new version: one file of the
 * release the feed offered, picked for this machine. The page never sees the address; it only
 * learns that there is one, and asks main to open it (the `updates:openDownload` channel).
 *
 * The link is only ever a file the channel file lists (a plain name, release-info.ts) beside the
 * channel file, on the feed's own origin and over https: a feed cannot send the user's browser
 * anywhere its own files are not.
 */
import { isPlainFileName, type ReleaseFile } from './release-info';

/** The copy of Pictor the link is for. */
export interface DownloadTarget {
  readonly platform: NodeJS.Platform;
  /** `process.arch`: `arm64`, `x64`… */
  readonly arch: string;
  /** `resources/package-type` of a Linux package (`deb`, `rpm`), or null. */
  readonly linuxPackageType: string | null;
}

/** The longest link handed to the OS browser (a feed's file names are at most 255 characters). */
const MAX_LINK_CHARS = 2048;

/** Architecture words electron-builder puts in artifact names (`Pictor-1.2.0-arm64.dmg`). */
const ARCH_WORDS = ['arm64', 'x64', 'ia32', 'armv7l', 'universal', 'x86_64', 'aarch64', 'amd64'];

/** The architectures a file name says it is for (none: electron-builder's default, x64). */
function archesNamed(name: string): string[] {
  const words = name.toLowerCase().split(/[-_.]/);
  return ARCH_WORDS.filter((arch) => words.includes(arch));
}

/** Names of each arch in the three naming schemes (electron-builder, deb, rpm). */
const SAME_ARCH: Record<string, readonly string[]> = {
  arm64: ['arm64', 'aarch64'],
  x64: ['x64', 'x86_64', 'amd64'],
};

/**
 * How well `name` fits `arch`: 2 made for it, 1 universal or unnamed (x64 by default, so only
 * for x64 machines, except `universal`), 0 for another architecture.
 */
function archFit(name: string, arch: string): number {
  const named = archesNamed(name);
  const mine = SAME_ARCH[arch] ?? [arch];
  if (named.some((word) => mine.includes(word))) return 2;
  if (named.includes('universal')) return 1;
  if (named.length === 0) return arch === 'x64' ? 1 : 0;
  return 0;
}

/** The extensions this copy can install from, best first. */
function wantedExtensions(target: DownloadTarget): readonly string[] {
  if (target.platform === 'darwin') return ['.dmg', '.zip'];
  if (target.platform === 'win32') return ['.exe'];
  if (target.platform === 'linux' && target.linuxPackageType === 'deb') return ['.deb'];
  if (target.platform === 'linux' && target.linuxPackageType === 'rpm') return ['.rpm'];
  return [];
}

/**
 * The https URL of `name` beside the channel file in `feedUrl`, or null when it would be
 * anything else: not a plain file name, another origin, another folder, credentials, not https,
 * or too long.
 */
export function releaseFileLink(feedUrl: string, name: string): string | null {
  // The channel file's own rule (release-info.ts), again: this is what the browser is sent to.
  if (!isPlainFileName(name)) return null;
  let base: URL;
  let link: URL;
  try {
    base = new URL(feedUrl);
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    link = new URL(encodeURIComponent(name), base);
  } catch {
    return null;
  }
  const inFolder =
    link.pathname.startsWith(base.pathname) &&
    !link.pathname.slice(base.pathname.length).includes('/');
  const clean =
    link.username === '' && link.password === '' && link.search === '' && link.hash === '';
  if (
    link.protocol !== 'https:' ||
    link.origin !== base.origin ||
    !inFolder ||
    !clean ||
    link.href.length > MAX_LINK_CHARS
  )
    return null;
  return link.href;
}

/**
 * The file of `files` this copy should download by hand, as an https URL on the feed's origin,
 * or null when none fits (then the page says "install it with your package manager or from the
 * download page" without a button).
 */
export function downloadLink(
  files: readonly Pick<ReleaseFile, 'url'>[],
  feedUrl: string,
  target: DownloadTarget,
): string | null {
  for (const extension of wantedExtensions(target)) {
    const fitting = files
      .filter((file) => file.url.toLowerCase().endsWith(extension))
      .map((file) => ({ name: file.url, fit: archFit(file.url, target.arch) }))
      .filter((file) => file.fit > 0)
      .sort((a, b) => b.fit - a.fit);
    for (const file of fitting) {
      const link = releaseFileLink(feedUrl, file.name);
      if (link !== null) return link;
    }
  }
  return null;
}
