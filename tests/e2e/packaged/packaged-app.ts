/**
 * Where `npm run dist` leaves the unpacked app of the host OS, and its executable (pure, so it is
 * unit-tested on every OS: tests/unit/e2e/packaged-app.test.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The executable inside `release/` for `platform`/`arch`, most specific layout first. */
export function packagedExecutableCandidates(
  release: string,
  platform: NodeJS.Platform,
  arch: string,
): string[] {
  if (platform === 'darwin') {
    const folders = arch === 'arm64' ? ['mac-arm64', 'mac-universal'] : ['mac', 'mac-universal'];
    return folders.map((folder) =>
      path.join(release, folder, 'Pictor.app', 'Contents', 'MacOS', 'Pictor'),
    );
  }
  if (platform === 'win32') {
    const folder = arch === 'arm64' ? 'win-arm64-unpacked' : 'win-unpacked';
    return [path.join(release, folder, 'Pictor.exe')];
  }
  const folder = arch === 'arm64' ? 'linux-arm64-unpacked' : 'linux-unpacked';
  return [path.join(release, folder, 'pictor')];
}

/** The first candidate that exists, or an error saying what to run first. */
export function findPackagedExecutable(
  release: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
  exists: (file: string) => boolean = existsSync,
): string {
  const candidates = packagedExecutableCandidates(release, platform, arch);
  const found = candidates.find((candidate) => exists(candidate));
  if (found) return found;
  throw new Error(
    `No packaged app in ${release} for ${platform}-${arch} (looked for ${candidates.join(', ')}). Run \`npm run dist\` first.`,
  );
}
