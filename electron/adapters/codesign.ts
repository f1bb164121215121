/** The CodeSignatureReader port on macOS's own /usr/bin/codesign (never through a shell). */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from 'electron';
import type { CodeSignatureReader, CodesignRun } from '../ports/code-signature';
import { readMacSignature, type MacSignature } from '../app/updates/update-capability';

const CODESIGN = '/usr/bin/codesign';

function run(args: readonly string[]): Promise<CodesignRun> {
  return new Promise((resolve) => {
    execFile(
      CODESIGN,
      args,
      { timeout: 30_000, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        if (!error) resolve({ status: 0, output });
        else resolve({ status: typeof error.code === 'number' ? error.code : null, output });
      },
    );
  });
}

/** codesign's two answers about a bundle (also read by CI about the installed app). */
export const codesignReader: CodeSignatureReader = {
  verify: (bundle) => run(['--verify', '--deep', '--strict', bundle]),
  display: (bundle) => run(['--display', '--verbose=2', bundle]),
};

/** Where the running app is, and how its signature is read (tests pass their own). */
export interface RunningApp {
  readonly platform: NodeJS.Platform;
  /** `process.resourcesPath`: `<bundle>.app/Contents/Resources` on macOS. */
  readonly resourcesPath: string;
  readonly exists: (file: string) => boolean;
  readonly reader: CodeSignatureReader;
}

/**
 * macOS, packaged, with an update feed (`app-update.yml` beside the app): the running app's
 * signature, read once (Squirrel.Mac installs only over a valid Developer ID signature). Not
 * read elsewhere, nor without a feed: nothing would use it, and `codesign --verify --deep
 * --strict` reads every file of the bundle. The app asks only after its first window showed
 * (host/late-updates.ts).
 */
export async function runningMacSignature(
  app: Pick<App, 'isPackaged'>,
  running: RunningApp = {
    platform: process.platform,
    resourcesPath: process.resourcesPath,
    exists: existsSync,
    reader: codesignReader,
  },
): Promise<MacSignature | undefined> {
  if (running.platform !== 'darwin' || !app.isPackaged) return undefined;
  if (!running.exists(join(running.resourcesPath, 'app-update.yml'))) return undefined;
  return readMacSignature(join(running.resourcesPath, '..', '..'), running.reader);
}
