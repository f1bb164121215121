/**
 * `npm run ci:smoke`: the packaged app of this OS (from `npm run dist`, or the installed one with
 * `-- --installed`: through /usr/bin/pictor on Linux) started as a user starts it, with throwaway
 * data and gallery folders, and driven through its own window: the built-in demo service
 * generates one image, it appears in Tasks and in the Gallery, and the app quits; then what it
 * left on disk is checked (smoke-checks.ts): the PNG carries its XMP, its WebP thumbnail was made,
 * the history holds the task as completed; on Linux, with the deb's AppArmor profile installed,
 * the app ran confined by it. The same binary run as the `pictor` command prints its help.
 *
 * It drives the app through Playwright's Electron launch, which needs Node's inspector and
 * Chromium's DevTools server: a shipped app refuses both (adapters/debugger-guard.ts, and its
 * binary's inspect fuse is off), so the smoke runs on a test build of the same commit
 * (`PICTOR_TEST_BUILD=1 npm run dist`, which keeps them; CI's OS legs build that one), and says so
 * when given a release build. The release job checks its signed builds' refusal instead
 * (refuses-debugger.ts). Quitting goes the user's way: the window is closed as its close button
 * closes it, which quits on Linux and Windows; on macOS the app stays running with no window, as
 * Mac apps do, so it gets SIGTERM, which Electron turns into app.quit() (before-quit, will-quit).
 * Runs in CI on macOS, Windows and Linux (.github/workflows/ci.yml) and locally after `npm run dist`.
 * A dry run (PICTOR_CI_DRY=1) finds the app it would start and says what it would drive.
 */
import path from 'node:path';
// Playwright (and the checks of what the app left, below) are loaded only to drive the app: a dry
// run (and ci-steps.test.ts, which runs this script on every leg) does not pay for loading them.
import type { ElectronApplication, Page } from '@playwright/test';
import { ciArgsOrExit } from '../../../electron/build/ci-args.mjs';
import { ciContext, skippedLine, type CiContext } from '../../../electron/build/ci-context';
import { commandLine, installedApp, type Invocation } from './installed-app';
import { findPackagedExecutable } from './packaged-app';
import { runCommand } from './run-command';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const ARGS = ciArgsOrExit(
  {
    name: 'ci:smoke',
    usage: 'npm run ci:smoke -- [--installed | --executable PATH]',
    options: { installed: { type: 'boolean' }, executable: { type: 'string' } },
  },
  process.argv.slice(2),
);
const PROMPT = 'A lighthouse at dusk, packaged smoke test';
const APP_URL = 'pictor-app://app/index.html';

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms: number,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function journey(page: Page): Promise<void> {
  const { expect } = await import('@playwright/test');
  const form = page.getByRole('form', { name: 'New task' });
  await form.getByLabel('Prompt', { exact: true }).fill(PROMPT);
  await form.getByRole('button', { name: 'Generate', exact: true }).click();
  const row = page.getByRole('article', { name: PROMPT });
  await expect(row.getByText('Completed', { exact: true })).toBeVisible({ timeout: 60_000 });
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Gallery' })
    .click();
  const grid = page.getByRole('grid', { name: 'Images' });
  await expect(grid.getByRole('gridcell')).toHaveCount(1, { timeout: 30_000 });
  await expect(grid.getByRole('img', { name: PROMPT })).toBeVisible();
}

/**
 * The packaged binary as the `pictor` command: `help` prints the commands and exits 0. On Windows
 * also through pictor.cmd in cmd.exe, as a user types it: it must wait for the app and pass its
 * exit code on (0 for help, 2 for a usage error).
 */
async function commandChecks(executable: string): Promise<void> {
  const usage = 'generate --base-url URL --prompt TEXT';
  const checks: { what: string; line: Invocation; code: number; text: string }[] = [
    { what: `${executable} help`, line: commandLine(executable, ['help']), code: 0, text: usage },
  ];
  if (process.platform === 'win32') {
    const wrapper = path.join(path.dirname(executable), 'bin', 'pictor.cmd');
    checks.push(
      { what: 'pictor.cmd help', line: commandLine(wrapper, ['help']), code: 0, text: usage },
      {
        what: 'pictor.cmd list --jsno',
        line: commandLine(wrapper, ['list', '--jsno']),
        code: 2,
        text: 'Unknown option. Did you mean --json?',
      },
    );
  }
  for (const check of checks) {
    const result = await runCommand(check.line);
    if (result.code !== check.code || !result.output.includes(check.text))
      throw new Error(
        `\`${check.what}\` exited ${String(result.code)} (expected ${check.code}): ${result.output.slice(0, 500)}`,
      );
    console.log(`smoke: \`${check.what}\` exited ${check.code} with the expected output`);
  }
}

/** `promise`, or 'timeout' after `ms`; the timer is cleared so it keeps nothing running. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Closes the app's window as its close button does; on macOS, where that leaves the app running,
 * asks it to quit (SIGTERM). It must then exit 0 by itself.
 */
async function quit(app: ElectronApplication, exited: Promise<number | null>): Promise<void> {
  await app.evaluate(({ BrowserWindow }, url) => {
    BrowserWindow.getAllWindows()
      .find((window) => window.webContents.getURL() === url)
      ?.close();
  }, APP_URL);
  if (process.platform === 'darwin') app.process().kill('SIGTERM');
  const code = await within(exited, 30_000);
  if (code === 'timeout')
    throw new Error('The app did not quit within 30 s of its window closing.');
  if (code !== 0) throw new Error(`The app quit with code ${String(code)}, not 0.`);
  console.log('smoke: the app quit with code 0');
}

/**
 * `--installed` (the app the installer put in place: /usr/bin/pictor on Linux), `--executable
 * PATH`, else what `npm run dist` left in release/.
 */
function executableToRun(context: CiContext): string {
  if (ARGS.values.installed === true && ARGS.values.executable !== undefined)
    throw new Error('Give --installed or --executable, not both.');
  if (ARGS.values.installed === true) return installedApp(context.platform, process.env);
  return (
    ARGS.values.executable ??
    findPackagedExecutable(path.join(context.root, 'release'), context.platform, context.arch)
  );
}

/** Playwright's Electron launch of the packaged app, or why a release build refused it. */
async function launch(
  executable: string,
  env: Record<string, string>,
): Promise<ElectronApplication> {
  // Root in a container has no setuid sandbox helper; a user's machine never takes this branch.
  const root = process.platform === 'linux' && process.getuid?.() === 0;
  const { _electron } = await import('@playwright/test');
  try {
    return await _electron.launch({
      executablePath: executable,
      args: [],
      env,
      chromiumSandbox: !root,
      timeout: 60_000,
    });
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (/Pictor: refused/.test(text))
      throw new Error(
        'This is a release build: it refuses the debugger Playwright drives it through. Build the smoke’s app with PICTOR_TEST_BUILD=1 npm run dist.',
        { cause: error },
      );
    throw error;
  }
}

/** The smoke's environment: the runner's, throwaway folders, a fast demo service. */
function smokeEnv(work: string): Record<string, string> {
  const inherited = Object.entries(process.env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  return {
    ...Object.fromEntries(inherited),
    PICTOR_USER_DATA_DIR: path.join(work, 'data'),
    PICTOR_GALLERY_DIR: path.join(work, 'gallery'),
    PICTOR_DEMO_DURATION_MS: '1500',
    PICTOR_POLL_INTERVAL_MS: '300',
  };
}

async function main(): Promise<void> {
  const context = ciContext('ci:smoke');
  const executable = executableToRun(context);
  if (context.dry) {
    console.log(
      skippedLine(
        'ci:smoke',
        `starting ${executable} and driving it (help, generate, gallery, quit)`,
        'a dry run starts no app: the stand-in Electron runs nothing',
      ),
    );
    return;
  }
  await commandChecks(executable);
  // Loaded once the app is to be driven: the checks read the app's history and image metadata
  // with its core's modules, which a dry run (every leg of ci-steps.test.ts) need not load.
  const { checkAppArmorProfile, checkSavedGeneration } = await import('./smoke-checks');
  const work = await tempFolder('smoke');
  console.log(`smoke: starting ${executable}`);
  const app = await launch(executable, smokeEnv(work));
  const child = app.process();
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on('exit', (code) => resolve(code));
  });
  try {
    // Through /usr/bin/pictor the wrapper exec's the binary: the same process.
    const installed = ARGS.values.installed === true;
    const confined = installed ? await checkAppArmorProfile(child.pid ?? 0) : null;
    if (confined) console.log(`smoke: ${confined}`);
    const page = await waitFor(
      'the app’s window',
      async () => app.windows().find((candidate) => candidate.url() === APP_URL),
      60_000,
    );
    await journey(page);
    console.log('smoke: generated one image; quitting');
    await quit(app, exited);
    // After the quit: the history is closed and its log folded into the file.
    const folders = { gallery: path.join(work, 'gallery'), dataDir: path.join(work, 'data') };
    console.log(`smoke: ${await checkSavedGeneration({ ...folders, prompt: PROMPT })}`);
  } finally {
    if (child.exitCode === null) child.kill();
    await removeFolder(work).catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(`smoke: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
