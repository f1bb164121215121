/**
 * `npm start`'s pre-flight: is there an Electron binary to start? When there is none (offline, a
 * proxy, a blocked download), Electron's own launcher says only "Electron failed to install
 * correctly… run npx install-electron", which fails the same way and hides the cause. This check
 * tries the download once, and otherwise says what happened and what to do.
 *
 *   tsx electron/build/check-electron.ts      (exit 0: ready; 1: not, with the reason on stderr)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where Electron's binary sits inside a dist folder, per platform (as electron/install.js). */
export function binaryInDist(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

export interface ElectronLookup {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  /** The installed `electron` package's folder. */
  readonly packageDir: string;
  readonly exists: (path: string) => boolean;
}

export type ElectronCheck =
  | { readonly ok: true; readonly binary: string }
  | { readonly ok: false; readonly problem: string; readonly mayDownload: boolean };

/** Finds the binary `electron .` would start, or says why there is none. */
export function findElectron(lookup: ElectronLookup): ElectronCheck {
  const inDist = binaryInDist(lookup.platform);
  const override = lookup.env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (override) {
    const binary = join(override, inDist);
    return lookup.exists(binary)
      ? { ok: true, binary }
      : {
          ok: false,
          problem: `ELECTRON_OVERRIDE_DIST_PATH is set to ${override}, but there is no Electron binary at ${binary}.`,
          mayDownload: false,
        };
  }
  const binary = join(lookup.packageDir, 'dist', inDist);
  if (lookup.exists(binary)) return { ok: true, binary };
  const skipped = lookup.env['ELECTRON_SKIP_BINARY_DOWNLOAD'];
  return skipped && skipped !== '0' && skipped !== 'false'
    ? {
        ok: false,
        problem:
          'The Electron binary was not downloaded: ELECTRON_SKIP_BINARY_DOWNLOAD is set in this shell.',
        mayDownload: false,
      }
    : {
        ok: false,
        problem: 'The Electron binary has not been downloaded yet.',
        mayDownload: true,
      };
}

/** What to tell the user when no binary could be found or fetched. */
export function adviceFor(problem: string, downloadError: string | null): string {
  const cause = downloadError ? `\nThe download failed with: ${downloadError}` : '';
  return `Pictor cannot start: ${problem}${cause}

The electron package fetches its binary from GitHub's releases when it is installed. What to do:
  - Behind a proxy: set HTTPS_PROXY (and HTTP_PROXY) in this shell, then run:
      node node_modules/electron/install.js
  - With a mirror of Electron's releases: set ELECTRON_MIRROR to its address, then run the same.
  - With an Electron 45 build already on this computer: set ELECTRON_OVERRIDE_DIST_PATH to the
    folder that holds it (the folder with the electron binary), then run npm start again.
  - If ELECTRON_SKIP_BINARY_DOWNLOAD is set, unset it first.
Then run npm start again. The tests (npm test) do not need the binary.`;
}

/** What the download printed, without its stack frames: the error and its cause, if any. */
export function downloadCause(output: string): string | null {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(
      (line) => /\w/.test(line) && !line.startsWith('at ') && !line.startsWith('Downloading'),
    );
  return lines.length === 0 ? null : lines.slice(0, 3).join(' ');
}

function main(): number {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('electron/package.json'));
  const lookup = { env: process.env, platform: process.platform, packageDir, exists: existsSync };
  let check = findElectron(lookup);
  let downloadError: string | null = null;
  if (!check.ok && check.mayDownload) {
    process.stderr.write('Downloading the Electron binary (once)…\n');
    const run = spawnSync(process.execPath, [join(packageDir, 'install.js')], {
      encoding: 'utf8',
      env: process.env,
    });
    if (run.status !== 0)
      downloadError = downloadCause(`${run.stdout}\n${run.stderr}`) ?? 'no output';
    check = findElectron(lookup);
  }
  if (check.ok) return 0;
  process.stderr.write(`${adviceFor(check.problem, downloadError)}\n`);
  return 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main();
}
