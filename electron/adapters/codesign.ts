/** The CodeSignatureReader port on macOS's own /usr/bin/codesign (never through a shell). */
import { execFile } from 'node:child_process';
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

/**
 * macOS, packaged: the running app's signature, read once at start (Squirrel.Mac installs only
 * over a valid Developer ID signature); elsewhere not checked.
 */
export async function runningMacSignature(
  app: Pick<App, 'isPackaged'>,
): Promise<MacSignature | undefined> {
  if (process.platform !== 'darwin' || !app.isPackaged) return undefined;
  // process.resourcesPath is <bundle>.app/Contents/Resources.
  return readMacSignature(join(process.resourcesPath, '..', '..'), codesignReader);
}
