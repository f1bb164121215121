/**
 * Every step of .github/workflows run here before it runs on a runner: each project script a step
 * calls (`npm run ci:*`, `npm run dist`, behind `xvfb-run -a` or not) is run with exactly the
 * arguments the step gives it on each matrix leg (workflow-steps.ts), in the order of the job,
 * against a stand-in release/ of that leg's OS: the release targets packed with stand-in Electron
 * distributions (shared-packs.ts) and the installers named as electron-builder names them. The
 * scripts run as a dry run (PICTOR_CI_DRY=1, electron/build/ci-context.ts): they parse their
 * arguments, find and read their files and decide everything as on the runner, and name what
 * they skipped (an installer run, sudo, a container, a signing tool). The scripts that only make
 * sense on a runner are listed below with the reason; a script a step calls that is in neither
 * list fails the test. On Linux legs `xvfb-run -a` is run for real.
 *
 * `npm run dist`'s `npm run build` is not run (it would write the working tree's dist/): the
 * packaging project's test build (global-setup.ts) stands in for it, and its electron-builder
 * run for the packs; its own script runs dry with the step's arguments.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { mirror } from './mirror';
import { sharedPacks, type PackOf } from './shared-packs';
import { RELEASE_TARGETS, resourcesDir, unpackedDir, type Target } from './stand-in-targets';
import { commandsOf, envValue, type Leg, type StepCommand, type Workflow } from './workflow-steps';
import { removeFolder, tempFolder } from '../support/temp-folders';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');
const VERSION = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const SCRIPTS = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;
const RUNNER = { repository: 'pictor-ci/pictor', refName: `v${VERSION}` };

/** How each project script a step calls runs here. */
type Plan = { readonly run: 'dry' | 'dist' } | { readonly skip: string };

const SUITE = 'a whole suite or check of its own: npm test runs it, not this test';
const PLANS: Record<string, Plan> = {
  ci: { skip: 'installs the dependencies: this run already has them' },
  'ci:linux-tools': { skip: 'sudo apt-get install on the runner (Xvfb, exiftool, rpm)' },
  'ci:chromium': { skip: 'downloads Playwright’s Chromium' },
  'ci:actionlint': {
    skip: 'installs actionlint with Go; workflows.test.ts runs actionlint where it is installed',
  },
  typecheck: { skip: SUITE },
  lint: { skip: SUITE },
  'test:vitest': { skip: SUITE },
  security: { skip: SUITE },
  'test:e2e': { skip: `${SUITE} (the journeys need the real Electron binary)` },
  'ci:electron': { skip: 'downloads the Electron binary' },
  'ci:mac-deps': { skip: 'brew install, on a Mac runner' },
  'ci:linux-userns-open': { skip: 'sudo sysctl on the runner’s kernel' },
  'ci:linux-userns-restore': { skip: 'sudo sysctl on the runner’s kernel' },
  'ci:probe': { run: 'dry' },
  'ci:windows-display': { run: 'dry' },
  'ci:windows-shells': {
    skip: 'a vitest file (tests/unit/shared/windows-command.test.ts) the unit suite runs here, its real cmd.exe and PowerShell skipped off Windows',
  },
  'ci:mac-display': { run: 'dry' },
  'ci:release-preflight': { run: 'dry' },
  dist: { run: 'dist' },
  'ci:install': { run: 'dry' },
  'ci:smoke': { run: 'dry' },
  'ci:installed': { run: 'dry' },
  'ci:fedora-rpm': { run: 'dry' },
  'ci:verify-signature': { run: 'dry' },
  'ci:refuses-debugger': { run: 'dry' },
  'ci:update-test': { run: 'dry' },
};

const COMMANDS: StepCommand[] = readdirSync(WORKFLOWS)
  .filter((name) => /\.ya?ml$/.test(name))
  .flatMap((name) =>
    commandsOf(parse(readFileSync(path.join(WORKFLOWS, name), 'utf8')) as Workflow),
  );
const LEGS = [...new Map(COMMANDS.map((command) => [command.leg, command.leg])).values()];
const XVFB = spawnSync('xvfb-run', ['--help']).error === undefined;

let work = '';
let packOf: PackOf = () => {
  throw new Error('The release targets were not packed (see the error of beforeAll).');
};

beforeAll(async () => {
  work = await tempFolder('ci-steps');
  packOf = await sharedPacks(RELEASE_TARGETS, {
    buildRoot: inject('pictorTestBuild'),
    packsDir: inject('pictorPacks'),
  });
});

afterAll(async () => {
  if (work) await removeFolder(work);
});

const TARGETS: Record<Leg['os'], readonly Target[]> = {
  Linux: [{ os: 'linux', arch: 'x64' }],
  macOS: [
    { os: 'mac', arch: 'x64' },
    { os: 'mac', arch: 'arm64' },
  ],
  Windows: [{ os: 'win', arch: 'x64' }],
};

/** The installers and feed files `npm run dist` leaves in release/ for an OS (placeholders). */
function installers(legOs: Leg['os'], feed: boolean): string[] {
  const files =
    legOs === 'Linux'
      ? [`pictor_${VERSION}_amd64.deb`, `pictor-${VERSION}.x86_64.rpm`]
      : legOs === 'macOS'
        ? ['x64', 'arm64'].flatMap((arch) => [
            `Pictor-${VERSION}-${arch}.dmg`,
            `Pictor-${VERSION}-${arch}.zip`,
          ])
        : [`Pictor-Setup-${VERSION}.exe`, `Pictor-Setup-${VERSION}.exe.blockmap`];
  const feeds = { Linux: 'latest-linux.yml', macOS: 'latest-mac.yml', Windows: 'latest.yml' };
  return feed ? [...files, feeds[legOs]] : files;
}

/**
 * A stand-in repository root for a leg: release/ with the leg's OS's unpacked apps (the packs)
 * and installers; with the update feed a release build writes into each app (app-update.yml).
 */
async function standInRoot(leg: Leg, index: number, feed: string): Promise<string> {
  const root = path.join(work, `${leg.job}-${index}`);
  const release = path.join(root, 'release');
  await mkdir(release, { recursive: true });
  for (const target of TARGETS[leg.os]) {
    const pack = packOf(target).appOut;
    const unpacked = path.join(release, unpackedDir(target));
    const resources = path.relative(pack, resourcesDir(target, pack)).split(path.sep);
    await mirror(pack, unpacked, resources);
    if (feed)
      await writeFile(
        path.join(resourcesDir(target, unpacked), 'app-update.yml'),
        `provider: generic\nurl: ${feed}\nchannel: latest\n`,
      );
  }
  for (const file of installers(leg.os, feed !== ''))
    await writeFile(path.join(release, file), `stand-in ${file}\n`);
  return root;
}

const PLATFORM = { Linux: 'linux', macOS: 'darwin', Windows: 'win32' } as const;

/** The command's environment on its leg's runner, with the dry run's stand-ins. */
function envOf(command: StepCommand, root: string): NodeJS.ProcessEnv {
  const runner = { ...RUNNER, workspace: root };
  const given = Object.fromEntries(
    Object.entries(command.env).map(([name, value]) => [
      name,
      envValue(String(value), command.leg, runner),
    ]),
  );
  return {
    ...process.env,
    ...given,
    GITHUB_REPOSITORY: RUNNER.repository,
    GITHUB_REF_NAME: RUNNER.refName,
    PICTOR_CI_DRY: '1',
    PICTOR_CI_ROOT: root,
    PICTOR_CI_PLATFORM: PLATFORM[command.leg.os],
    PICTOR_CI_ARCH: command.leg.arch,
  };
}

/**
 * What npm runs for a script: `tsx FILE` or `node FILE [WORDS]` as Node's own arguments (tsx as
 * Node's loader, in one process instead of its CLI's two), or null for a line of another shape.
 * dist's line is `npm run build && tsx electron/build/dist.ts`: its build is the test build's.
 */
function nodeArgsOf(script: string, line: string): string[] | null {
  if (script === 'dist') return ['--import', 'tsx', 'electron/build/dist.ts'];
  const tsx = /^tsx ([\w./-]+\.ts)$/.exec(line);
  if (tsx?.[1]) return ['--import', 'tsx', tsx[1]];
  const node = /^node ([\w./-]+\.m?js)((?: [\w-]+)*)$/.exec(line);
  if (node?.[1]) return [node[1], ...(node[2] ?? '').split(' ').filter(Boolean)];
  return null;
}

/**
 * The program and arguments that run the command as its step does: the script's own command
 * line with the step's arguments after it, as npm runs it (npm's own part, passing the words
 * after `--` on, is the third test's; each npm start cost about as much as the script's), behind
 * `xvfb-run -a` where the step has it; npm itself for a script line of another shape.
 */
function invocation(command: StepCommand): [string, string[]] {
  const node = nodeArgsOf(command.script, SCRIPTS[command.script] ?? '');
  const [file, args] = node
    ? [process.execPath, [...node, ...command.args]]
    : ['npm', [...command.npm, ...(command.args.length > 0 ? ['--', ...command.args] : [])]];
  return command.xvfb && XVFB ? ['xvfb-run', ['-a', file, ...args]] : [file, args];
}

function run(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ code: null, output: `${output}${error.message}` }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function shown(command: StepCommand): string {
  const line = `npm ${command.npm.join(' ')}${command.args.length ? ` -- ${command.args.join(' ')}` : ''}`;
  return command.xvfb ? `xvfb-run -a ${line}` : line;
}

describe('the workflows’ steps', () => {
  it('every project script a step calls is run here or skipped with a reason, and no other is listed', () => {
    const called = [...new Set(COMMANDS.map((command) => command.script))].sort();
    expect(called.filter((script) => !(script in PLANS))).toEqual([]);
    expect(Object.keys(PLANS).filter((script) => !called.includes(script))).toEqual([]);
    for (const script of called)
      if (script !== 'ci') expect(SCRIPTS[script], `package.json has ${script}`).toBeDefined();
  });

  it('npm run dist is the build and then electron/build/dist.ts (what this test runs of it)', () => {
    expect(SCRIPTS['dist']).toBe('npm run build && tsx electron/build/dist.ts');
  });

  it('a step with an argument its script does not know fails (the runner below can fail)', async () => {
    const result = await run('npm', ['run', '--silent', 'ci:install', '--', '--relase-dir', 'x'], {
      ...process.env,
      PICTOR_CI_DRY: '1',
    });
    expect(result.code).toBe(2);
    expect(result.output).toContain('ci:install does not know the option --relase-dir.');
  });

  LEGS.forEach((leg, index) => {
    it(`${leg.job}: ${leg.name}: every step runs with its arguments (dry) or is skipped with its reason`, async () => {
      const commands = COMMANDS.filter((command) => command.leg === leg);
      const feedCommand = commands.find((command) => 'PICTOR_UPDATE_FEED' in command.env);
      const feed = feedCommand
        ? envValue(feedCommand.env['PICTOR_UPDATE_FEED'] ?? '', leg, {
            ...RUNNER,
            workspace: ROOT,
          })
        : '';
      const root = await standInRoot(leg, index, feed);
      const report: string[] = XVFB
        ? []
        : ['  (xvfb-run is not installed here: its steps ran without it)'];
      for (const command of commands) {
        const plan = PLANS[command.script];
        if (!plan) throw new Error(`${command.script} is not classified (see the first test).`);
        if ('skip' in plan) {
          report.push(`  skipped: ${shown(command)}: ${plan.skip}`);
          continue;
        }
        const [file, args] = invocation(command);
        const result = await run(file, args, envOf(command, root));
        const lines = result.output
          .trim()
          .split('\n')
          .map((line) => `      ${line}`);
        report.push(`  ran: ${shown(command)} (${command.step})`, ...lines);
        expect(
          result.code,
          `${leg.name}: "${command.step}": ${shown(command)} exited ${String(result.code)}:\n${result.output}`,
        ).toBe(0);
        expect(result.output).not.toContain('FAILED');
      }
      console.info(`${leg.job}: ${leg.name}\n${report.join('\n')}`);
    }, 300_000);
  });
});
