/**
 * `npm run ci:mac-display`: the macOS runner's screen, set and printed before the journeys.
 * Virtual Macs have had screens of 1176x694, and a window cannot be larger than its screen's work
 * area (the screen less the menu bar and the Dock), so the journeys' 1280x800 window would not
 * get its size. This prints the main screen's size and work area (AppKit's NSScreen, in points,
 * the units of Electron's window sizes); when the work area is too small it sets the largest mode
 * the screen offers with displayplacer (installed with Homebrew then) and prints the size again.
 * A screen still too small fails with a sentence saying so; elsewhere it does nothing. A dry run
 * (PICTOR_CI_DRY=1) for macOS says what it would read and set.
 */
import { spawnSync } from 'node:child_process';
import { ciArgsOrExit } from '../../../electron/build/ci-args.mjs';
import { ciContext, skippedLine } from '../../../electron/build/ci-context';
import {
  LARGEST_JOURNEY_WINDOW,
  TITLE_BAR,
  largestDisplayMode,
  screenFitsJourneys,
  type Size,
} from '../harness/screen-fit';

const MINUTE = 60_000;

/** The main screen's frame and visible frame, in points (JavaScript for Automation's AppKit). */
const SCREEN_SCRIPT = [
  "ObjC.import('AppKit');",
  'const screen = $.NSScreen.mainScreen;',
  'const frame = screen.frame.size;',
  'const visible = screen.visibleFrame.size;',
  '[frame.width, frame.height, visible.width, visible.height].map(Math.round).join(" ");',
].join('\n');

function command(name: string, args: string[], timeout = MINUTE) {
  const result = spawnSync(name, args, { encoding: 'utf8', timeout });
  return {
    ok: result.status === 0,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim(),
  };
}

function readScreen(): { screen: Size; workArea: Size } | null {
  const read = command('osascript', ['-l', 'JavaScript', '-e', SCREEN_SCRIPT]);
  const numbers = read.output.split(/\s+/).map(Number);
  if (!read.ok || numbers.length !== 4 || numbers.some((value) => !Number.isFinite(value))) {
    console.error(`mac-display: could not read the screen's size: ${read.output}`);
    return null;
  }
  const [width = 0, height = 0, areaWidth = 0, areaHeight = 0] = numbers;
  return { screen: { width, height }, workArea: { width: areaWidth, height: areaHeight } };
}

function say(what: string, read: { screen: Size; workArea: Size }): void {
  console.log(
    `mac-display: ${what}: the screen is ${read.screen.width}x${read.screen.height}, its work area ${read.workArea.width}x${read.workArea.height} (points)`,
  );
}

/** Sets the main screen's largest mode with displayplacer; says what it did. */
function setLargestMode(): void {
  if (!command('which', ['displayplacer']).ok) {
    const install = command('brew', ['install', 'displayplacer'], 10 * MINUTE);
    if (!install.ok) return console.log(`mac-display: no displayplacer: ${install.output}`);
  }
  const list = command('displayplacer', ['list']);
  const mode = list.ok ? largestDisplayMode(list.output) : null;
  if (!mode) return console.log(`mac-display: displayplacer lists no mode: ${list.output}`);
  const set = command('displayplacer', [`id:${mode.id} mode:${mode.mode}`]);
  console.log(
    `mac-display: displayplacer set mode ${mode.mode} (${mode.width}x${mode.height}): ${set.ok ? 'ok' : set.output}`,
  );
}

function main(): number {
  ciArgsOrExit(
    { name: 'ci:mac-display', usage: 'npm run ci:mac-display', options: {} },
    process.argv.slice(2),
  );
  const context = ciContext('ci:mac-display');
  if (context.platform !== 'darwin') {
    console.log('mac-display: not macOS: nothing to do');
    return 0;
  }
  if (context.dry) {
    console.log(
      skippedLine(
        'ci:mac-display',
        'the screen read with NSScreen, and its largest mode set with displayplacer if too small',
        'a dry run on this machine has no Mac screen',
      ),
    );
    return 0;
  }
  const before = readScreen();
  if (!before) return 1;
  say('before', before);
  if (screenFitsJourneys(before.workArea)) return 0;
  setLargestMode();
  const after = readScreen();
  if (!after) return 1;
  say('after', after);
  if (screenFitsJourneys(after.workArea)) return 0;
  console.error(
    `mac-display: FAILED: the screen's work area is ${after.workArea.width}x${after.workArea.height}, and the journeys' window needs ${LARGEST_JOURNEY_WINDOW.width}x${LARGEST_JOURNEY_WINDOW.height + TITLE_BAR} (its ${LARGEST_JOURNEY_WINDOW.width}x${LARGEST_JOURNEY_WINDOW.height} content and title bar): this runner's screen cannot be made large enough.`,
  );
  return 1;
}

process.exitCode = main();
