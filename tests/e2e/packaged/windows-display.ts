/**
 * `npm run ci:windows-display`: GitHub's Windows runners start with a 1024x768 screen, on which
 * the journeys' 1280x800 window (and the layout journeys' sizes) cannot fit; this sets the
 * display to 1920x1080 with Windows Server's own `Set-DisplayResolution` and checks what the
 * screen then is (its bounds, through WinForms), failing with what it found otherwise. Elsewhere
 * it does nothing. The Electron host of the journeys also checks its window got its size. A dry
 * run (PICTOR_CI_DRY=1) for Windows says what it would set.
 */
import { spawnSync } from 'node:child_process';
import { ciArgsOrExit } from '../../../electron/build/ci-args.mjs';
import { ciContext, skippedLine } from '../../../electron/build/ci-context';

const WIDTH = 1920;
const HEIGHT = 1080;

function powershell(script: string): { code: number | null; output: string } {
  const result = spawnSync('powershell', ['-NoProfile', '-NonInteractive', '-Command', script], {
    encoding: 'utf8',
  });
  return { code: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

function main(): number {
  ciArgsOrExit(
    { name: 'ci:windows-display', usage: 'npm run ci:windows-display', options: {} },
    process.argv.slice(2),
  );
  const context = ciContext('ci:windows-display');
  if (context.platform !== 'win32') {
    console.log('windows-display: not Windows: nothing to do');
    return 0;
  }
  if (context.dry) {
    console.log(
      skippedLine(
        'ci:windows-display',
        `Set-DisplayResolution -Width ${WIDTH} -Height ${HEIGHT}`,
        'a dry run on this machine has no Windows display to set',
      ),
    );
    return 0;
  }
  const set = powershell(`Set-DisplayResolution -Width ${WIDTH} -Height ${HEIGHT} -Force`);
  if (set.code !== 0) console.log(`windows-display: Set-DisplayResolution: ${set.output}`);
  const read = powershell(
    'Add-Type -AssemblyName System.Windows.Forms; $b = [System.Windows.Forms.Screen]::PrimaryScreen.Bounds; "$($b.Width)x$($b.Height)"',
  );
  const size = read.output.split(/\s+/).at(-1) ?? '';
  if (size === `${WIDTH}x${HEIGHT}`) {
    console.log(`windows-display: the screen is ${size}`);
    return 0;
  }
  console.error(
    `windows-display: FAILED: the screen is ${size || read.output}, not ${WIDTH}x${HEIGHT}`,
  );
  return 1;
}

process.exitCode = main();
