/**
 * The CI workflow (.github/workflows) cannot run here, so it is checked here: every file passes
 * GitHub Actions' own workflow schema (@action-validator/cli, offline) and, where it is installed
 * (`npm run ci:actionlint` installs it with Go; neither npm nor Debian carries it), actionlint
 * with no finding; and its shape is what the
 * project promises: lint, typecheck and the vitest suites once on Linux; four OS legs (Ubuntu
 * 24.04, macOS arm64 and Intel, Windows Server 2025) on Node 24 that probe Electron's Node, run
 * the journeys in real Electron, build one CPU's installers, install them, test the installed app
 * (smoke, `pictor help` and `pictor self-test` typed with no display) and uninstall it, and the
 * rpm on Fedora (the smoke's build a test build, Windows' display 1920x1080 first); a release job
 * on version tags only, never a pull request (signed release installers, their signatures, their
 * refusal of a debugger, the update from the previous tag through a test feed); the installers
 * kept even when a later step fails; caches for Electron,
 * electron-builder and Playwright (a lockfile change restores the last one); actions on the Node
 * 24 runtime (GitHub runs Node 20 actions on 24 since June 2026 and has removed Node 20); and
 * every command one a developer can run locally (an npm script, or one behind xvfb-run).
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findActionlint, runActionlint } from '../../electron/build/actionlint';
import { removeFolder, tempFolder } from '../support/temp-folders';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');
const VALIDATOR = path.join(ROOT, 'node_modules', '@action-validator', 'cli', 'cli.mjs');
const run = promisify(execFile);

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly with?: Record<string, unknown>;
  readonly env?: Record<string, string>;
}
interface Job {
  readonly 'runs-on': string;
  readonly 'timeout-minutes'?: number | string;
  readonly if?: string;
  readonly permissions?: Record<string, string>;
  readonly needs?: string;
  readonly env?: Record<string, string>;
  readonly strategy?: {
    matrix?: { include?: ({ os: string } & Record<string, string | number>)[] };
  };
  readonly steps: Step[];
}
interface Workflow {
  readonly on: Record<string, unknown>;
  readonly jobs: Record<string, Job>;
}

async function validate(file: string): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [VALIDATOR, file]);
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

let files: string[] = [];
let work = '';
let scripts: Record<string, string> = {};

beforeAll(async () => {
  files = (await readdir(WORKFLOWS)).filter((name) => /\.ya?ml$/.test(name));
  work = await tempFolder('workflows');
  scripts = (
    JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
});

afterAll(async () => {
  if (work) await removeFolder(work);
});

async function ciWorkflow(): Promise<Workflow> {
  return parse(await readFile(path.join(WORKFLOWS, 'ci.yml'), 'utf8')) as Workflow;
}

describe('.github/workflows', () => {
  it('holds the CI workflow', () => {
    expect(files).toContain('ci.yml');
  });

  it('passes the GitHub Actions workflow schema, every file', async () => {
    for (const file of files) {
      const result = await validate(path.join(WORKFLOWS, file));
      expect(result.ok, `${file}: ${result.output}`).toBe(true);
    }
  });

  const actionlint = findActionlint();
  it.skipIf(!actionlint)(
    actionlint
      ? 'passes actionlint with no finding'
      : 'passes actionlint with no finding (skipped: actionlint is not installed; npm run ci:actionlint installs it with Go)',
    () => {
      const result = runActionlint(actionlint ?? 'actionlint');
      expect(result.code, result.output).toBe(0);
    },
  );

  it('the validator refuses a broken workflow (so the check above can fail)', async () => {
    const text = await readFile(path.join(WORKFLOWS, 'ci.yml'), 'utf8');
    const broken = path.join(work, 'broken.yml');
    // A misspelt key: the job has no runs-on and an unknown property.
    await writeFile(
      broken,
      text.replace('runs-on: ${{ matrix.os }}', 'runs-onn: ${{ matrix.os }}'),
    );
    expect((await validate(broken)).ok).toBe(false);
  });
});

/** Every `run:` command of a job, with the step's `if:` condition. */
function runs(job: Job | undefined): { run: string; if?: string }[] {
  return (job?.steps ?? []).flatMap((step) =>
    step.run ? [{ run: step.run, ...(step.if ? { if: step.if } : {}) }] : [],
  );
}

/** The index of the first step whose command includes `text` (and whose condition, `when`). */
function indexOf(job: Job | undefined, text: string, when?: RegExp): number {
  return (job?.steps ?? []).findIndex(
    (step) => step.run?.includes(text) && (when === undefined || when.test(step.if ?? '')),
  );
}

describe('the CI workflow', () => {
  let checks: Job | undefined;
  let os: Job | undefined;
  let release: Job | undefined;
  let ciJobs: Record<string, Job> = {};
  let triggers: Record<string, unknown> = {};
  beforeAll(async () => {
    const workflow = await ciWorkflow();
    ciJobs = workflow.jobs;
    triggers = workflow.on;
    checks = ciJobs['checks'];
    os = ciJobs['os'];
    release = ciJobs['release'];
  });

  it('runs actionlint before the vitest suites, which run it again', () => {
    expect(indexOf(checks, 'npm run ci:actionlint')).toBeGreaterThanOrEqual(0);
    expect(indexOf(checks, 'npm run ci:actionlint')).toBeLessThan(
      indexOf(checks, 'npm run test:vitest'),
    );
  });

  it('sets and prints the macOS screen’s size before the journeys', () => {
    const display = indexOf(os, 'npm run ci:mac-display', /macOS/);
    expect(display).toBeGreaterThanOrEqual(0);
    expect(display).toBeLessThan(indexOf(os, 'npm run test:e2e', /!= 'Linux'/));
  });

  it('checks the tag against package.json and the Mac’s notarisation before it builds anything', () => {
    const preflight = indexOf(release, 'npm run ci:release-preflight');
    expect(preflight).toBe(indexOf(release, 'npm ci') + 1);
    expect(preflight).toBeLessThan(indexOf(release, 'npm run dist'));
    expect(release?.env?.['PICTOR_MAC_NOTARISED']).toContain('secrets.APPLE_API_KEY_P8');
    expect(release?.env?.['PICTOR_MAC_NOTARISED']).toContain('secrets.APPLE_API_ISSUER');
    expect(release?.env?.['PICTOR_REPOSITORY_PRIVATE']).toBe(
      '${{ github.event.repository.private }}',
    );
  });

  it('builds the previous tag for the runner’s CPU only, unnotarised, and deletes the test feed whatever happened', () => {
    const previous = release?.steps.find((step) =>
      step.run?.startsWith('npm run ci:update-test -- previous'),
    );
    expect(previous?.run).toBe('npm run ci:update-test -- previous --${{ matrix.arch }}');
    expect(Object.keys(previous?.env ?? {}).filter((key) => key.startsWith('APPLE_'))).toEqual([]);
    const cleanup = release?.steps.find((step) => step.run === 'npm run ci:update-test -- cleanup');
    expect(cleanup?.if).toBe('always()');
    expect(indexOf(release, 'npm run ci:update-test -- cleanup')).toBeGreaterThan(
      indexOf(release, 'npm run ci:update-test -- check'),
    );
  });

  it('gives each release leg its own test feed and a time limit that fits it (macOS: notarisation)', () => {
    const legs = release?.strategy?.matrix?.include ?? [];
    expect(Object.fromEntries(legs.map((leg) => [leg.os, leg['platform']]))).toEqual({
      'ubuntu-24.04': 'linux',
      'macos-15': 'darwin',
      'windows-2025': 'win32',
    });
    expect(release?.env?.['PICTOR_UPDATE_FEED']).toContain('test-feed-{1}-{2}/');
    expect(release?.env?.['PICTOR_UPDATE_FEED']).toContain('matrix.platform');
    expect(release?.['timeout-minutes']).toBe('${{ matrix.timeout }}');
    const limits = Object.fromEntries(legs.map((leg) => [leg.os, leg['timeout']]));
    expect(limits['macos-15']).toBeGreaterThanOrEqual(150);
    expect(limits['ubuntu-24.04']).toBeGreaterThanOrEqual(60);
    expect(limits['windows-2025']).toBeGreaterThanOrEqual(60);
    expect(Math.max(...Object.values(limits).map(Number))).toBeLessThanOrEqual(360);
  });

  it('sets Windows’ display to 1920x1080 before the journeys', () => {
    const display = indexOf(os, 'npm run ci:windows-display', /Windows/);
    expect(display).toBeGreaterThanOrEqual(0);
    expect(display).toBeLessThan(indexOf(os, 'npm run test:e2e', /!= 'Linux'/));
  });

  it('runs the printed commands in the real cmd.exe and PowerShell on Windows, after npm ci', () => {
    const shells = indexOf(os, 'npm run ci:windows-shells', /Windows/);
    expect(shells).toBeGreaterThan(indexOf(os, 'npm ci'));
    expect(os?.steps[shells]?.if).toBe("runner.os == 'Windows'");
  });

  it('builds a test build for the smoke, whose app keeps the debugger Playwright drives', () => {
    const dist = os?.steps.find((step) => step.run?.startsWith('npm run dist'));
    expect(dist?.env?.['PICTOR_TEST_BUILD']).toBe('1');
    expect(dist?.run).not.toContain('--release');
  });

  it('runs the release job on version tags only (pushed or by hand), never on a pull request', () => {
    expect(triggers['push']).toEqual({ branches: ['main'], tags: ['v*'] });
    // Pushed, or run by hand (workflow_dispatch) on a tag: docs/RELEASING.md.
    expect(release?.if).toBe(
      "(github.event_name == 'push' || github.event_name == 'workflow_dispatch') && startsWith(github.ref, 'refs/tags/v')",
    );
    expect(triggers).toHaveProperty('workflow_dispatch');
    expect(release?.if).not.toContain('pull_request');
    expect(release?.needs).toBe('os');
    expect(release?.permissions).toEqual({ contents: 'write' });
    // Only the release job may write to the repository.
    expect(Object.entries(ciJobs).filter(([, job]) => job.permissions)).toHaveLength(1);
  });

  it('gives the secrets only to the steps that build or publish, never to npm ci', () => {
    const secretly = /\$\{\{ (secrets\.\w+|github\.token) \}\}/;
    for (const job of Object.values(ciJobs)) {
      for (const value of Object.values(job.env ?? {})) expect(value).not.toMatch(secretly);
      for (const step of job.steps) {
        if (!Object.values(step.env ?? {}).some((value) => secretly.test(value))) continue;
        expect(step.run, String(step.name)).toMatch(
          /^npm run (dist -- --release|ci:update-test -- (previous|publish|cleanup))/,
        );
      }
    }
  });

  it('builds signed release installers (secrets as electron-builder reads them), then checks them installed', () => {
    const dist = release?.steps.find((step) => step.run?.startsWith('npm run dist'));
    for (const name of ['CSC_LINK', 'CSC_KEY_PASSWORD', 'APPLE_API_KEY_ID', 'WIN_CSC_LINK'])
      expect(dist?.env?.[name], name).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
    expect(dist?.run).toContain('--release');
    expect(dist?.env?.['PICTOR_TEST_BUILD']).toBeUndefined();
    const order = [
      'npm run ci:release-preflight',
      'npm run dist -- --release',
      'npm run ci:install',
      'npm run ci:verify-signature',
      'npm run ci:refuses-debugger -- --installed',
      'npm run ci:installed -- self-test --no-display',
      'npm run ci:install -- --uninstall',
      'npm run ci:update-test -- publish',
      'npm run ci:update-test -- previous',
      'npm run ci:update-test -- check',
      'npm run ci:update-test -- cleanup',
    ].map((command) => indexOf(release, command));
    expect(
      order.every((index) => index >= 0),
      JSON.stringify(order),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(runs(release).map((step) => step.run)).not.toContain('npm run ci:smoke -- --installed');
  });

  it('runs the OS legs on Ubuntu 24.04, macOS arm64, macOS Intel (macos-15-intel) and Windows Server 2025', () => {
    const runners = os?.strategy?.matrix?.include?.map((entry) => entry.os) ?? [];
    expect(runners.sort()).toEqual(['macos-15', 'macos-15-intel', 'ubuntu-24.04', 'windows-2025']);
    const arches = Object.fromEntries(
      (os?.strategy?.matrix?.include ?? []).map((entry) => [entry.os, entry['arch']]),
    );
    expect(arches).toEqual({
      'ubuntu-24.04': 'x64',
      'macos-15': 'arm64',
      'macos-15-intel': 'x64',
      'windows-2025': 'x64',
    });
    expect(checks?.['runs-on']).toBe('ubuntu-24.04');
  });

  it('uses the majors of GitHub’s actions that run on Node 24', () => {
    const node24: Record<string, number> = {
      'actions/checkout': 5,
      'actions/setup-node': 5,
      'actions/cache': 5,
      'actions/upload-artifact': 6,
    };
    const used = Object.values(ciJobs).flatMap((job) =>
      job.steps.flatMap((step) => (step.uses ? [step.uses] : [])),
    );
    expect(used.length).toBeGreaterThan(0);
    for (const uses of used) {
      const [action = '', version = ''] = uses.split('@');
      expect(node24[action], `${uses}: an action this test does not know`).toBeDefined();
      expect(Number(/^v(\d+)$/.exec(version)?.[1]), uses).toBeGreaterThanOrEqual(
        node24[action] ?? Infinity,
      );
    }
  });

  it('uses Node 24, the Node Electron 45 embeds, in every job', async () => {
    for (const job of Object.values((await ciWorkflow()).jobs)) {
      const setup = job.steps.find((step) => step.uses?.startsWith('actions/setup-node'));
      expect(setup?.with?.['node-version']).toBe(24);
    }
  });

  it('runs typecheck, lint, the vitest suites and the security review once, on Linux only', () => {
    const once = ['npm run typecheck', 'npm run lint', 'npm run test:vitest', 'npm run security'];
    expect(runs(checks).map((step) => step.run)).toEqual(expect.arrayContaining(once));
    for (const command of [...once, 'npm test'])
      expect(runs(os).map((step) => step.run)).not.toContain(command);
    expect(os?.['needs']).toBe('checks');
  });

  it('probes Electron’s Node, then runs the journeys in real Electron on every OS', () => {
    expect(os?.env?.['PICTOR_E2E_HOST']).toBe('electron');
    const probe = indexOf(os, 'npm run ci:probe');
    expect(probe).toBeGreaterThan(indexOf(os, 'npm run ci:electron'));
    expect(indexOf(os, 'xvfb-run -a npm run test:e2e', /Linux/)).toBeGreaterThan(probe);
    expect(indexOf(os, 'npm run test:e2e', /!= 'Linux'/)).toBeGreaterThan(probe);
  });

  it('installs exiftool on Linux and macOS', () => {
    expect(runs(checks)).toContainEqual({ run: 'npm run ci:linux-tools' });
    expect(runs(os)).toContainEqual({ run: 'npm run ci:mac-deps', if: "runner.os == 'macOS'" });
    expect(runs(os)).toContainEqual({ run: 'npm run ci:linux-tools', if: "runner.os == 'Linux'" });
  });

  it('lifts the user-namespace restriction for the dev binary only, and restores it before installing', () => {
    const open = indexOf(os, 'npm run ci:linux-userns-open');
    const journeys = indexOf(os, 'npm run test:e2e');
    const restore = indexOf(os, 'npm run ci:linux-userns-restore');
    const install = indexOf(os, 'npm run ci:install');
    expect(open).toBeGreaterThanOrEqual(0);
    expect(open).toBeLessThan(journeys);
    expect(restore).toBeGreaterThan(journeys);
    expect(restore).toBeLessThan(install);
  });

  it('builds one CPU per leg, installs the package, tests the installed app, then uninstalls it', () => {
    const order = [
      'npm run dist -- --${{ matrix.arch }}',
      'npm run ci:install',
      'npm run ci:smoke -- --installed',
      'npm run ci:installed -- help --no-display',
      'npm run ci:installed -- self-test --no-display',
      'npm run ci:installed -- mcp --no-display',
      'npm run ci:install -- --uninstall',
    ].map((command) => indexOf(os, command));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(runs(os)).toContainEqual({
      run: 'xvfb-run -a npm run ci:smoke -- --installed',
      if: "runner.os == 'Linux'",
    });
    expect(runs(os)).toContainEqual({ run: 'npm run ci:fedora-rpm', if: "runner.os == 'Linux'" });
  });

  it('keeps Electron, electron-builder’s tools and Playwright’s browsers in caches', () => {
    const cached = Object.values(ciJobs).flatMap((job) =>
      job.steps
        .filter((step) => step.uses?.startsWith('actions/cache'))
        .map((step) => String(step.with?.['path'])),
    );
    expect([...new Set(cached)].sort()).toEqual([
      '.cache/electron',
      '.cache/electron-builder',
      '.cache/ms-playwright',
    ]);
    expect(os?.env?.['electron_config_cache']).toBe('${{ github.workspace }}/.cache/electron');
    expect(os?.env?.['ELECTRON_BUILDER_CACHE']).toBe(
      '${{ github.workspace }}/.cache/electron-builder',
    );
    expect(checks?.env?.['PLAYWRIGHT_BROWSERS_PATH']).toBe(
      '${{ github.workspace }}/.cache/ms-playwright',
    );
  });

  it('falls back to the newest cache of the same OS (and CPU) when the lockfile changed', () => {
    const caches = Object.values(ciJobs).flatMap((job) =>
      job.steps.filter((step) => step.uses?.startsWith('actions/cache')),
    );
    // Electron and electron-builder on the OS legs, Playwright once, electron-builder's for the release.
    expect(caches).toHaveLength(4);
    const hash = "${{ hashFiles('package-lock.json') }}";
    for (const cache of caches) {
      const key = String(cache.with?.['key']);
      expect(key.endsWith(hash), key).toBe(true);
      expect(cache.with?.['restore-keys'], key).toBe(key.slice(0, -hash.length));
    }
  });

  it('keeps the installers and the reports when a step after them fails', () => {
    const uploads = Object.values(ciJobs).flatMap((job) =>
      job.steps.filter((step) => step.uses?.startsWith('actions/upload-artifact')),
    );
    expect(uploads.length).toBeGreaterThan(0);
    // A step with no condition runs only while every step before it passed.
    for (const upload of uploads)
      expect(upload.if ?? '', String(upload.name)).toMatch(/failure\(\)|!cancelled\(\)|always\(\)/);
    const installers = os?.steps.find((step) => step.name === 'Keep the installers');
    expect(installers?.if).toBe('${{ !cancelled() }}');
  });

  it('runs nothing a developer cannot run locally: npm scripts that exist, npm ci', async () => {
    const commands = Object.values((await ciWorkflow()).jobs).flatMap((job) =>
      job.steps.flatMap((step) => (step.run ? [step.run] : [])),
    );
    for (const command of commands) {
      const npm = /^(?:xvfb-run -a )?npm (ci|test|run (?:--silent )?([\w:-]+))(?: .*)?$/.exec(
        command,
      );
      expect(npm, `not an npm command: ${command}`).not.toBeNull();
      const script = npm?.[2];
      if (script) expect(scripts[script], `no npm script "${script}"`).toBeDefined();
    }
  });
});
