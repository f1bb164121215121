/**
 * The CI workflow (.github/workflows) cannot run here, so it is checked here: every file passes
 * GitHub Actions' own workflow schema (@action-validator/cli, offline), and its shape is what the
 * project promises: the four runners, Node 24, the journeys in real Electron, installers and the
 * packaged smoke journey, and every command one a developer can run locally (an npm script, or
 * npm/npx behind xvfb-run).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

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
}
interface Job {
  readonly 'runs-on': string;
  readonly env?: Record<string, string>;
  readonly strategy?: { matrix?: { include?: { os: string }[] } };
  readonly steps: Step[];
}
interface Workflow {
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
  work = await mkdtemp(path.join(os.tmpdir(), 'pictor-workflows-'));
  scripts = (
    JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
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

describe('the CI workflow', () => {
  it('runs on Ubuntu 24.04, macOS arm64, macOS x64 and Windows', async () => {
    const job = Object.values((await ciWorkflow()).jobs)[0];
    const runners = job?.strategy?.matrix?.include?.map((entry) => entry.os) ?? [];
    expect(runners.sort()).toEqual(['macos-13', 'macos-14', 'ubuntu-24.04', 'windows-latest']);
  });

  it('uses Node 24, the Node Electron 45 embeds', async () => {
    const steps = Object.values((await ciWorkflow()).jobs).flatMap((job) => job.steps);
    const setup = steps.find((step) => step.uses?.startsWith('actions/setup-node'));
    expect(setup?.with?.['node-version']).toBe(24);
  });

  it('runs the tests with the journeys in real Electron, builds installers and runs the packaged smoke journey', async () => {
    const job = Object.values((await ciWorkflow()).jobs)[0];
    expect(job?.env?.['PICTOR_E2E_HOST']).toBe('electron');
    const commands = job?.steps.flatMap((step) => (step.run ? [step.run] : [])) ?? [];
    expect(commands).toContain('npm test');
    expect(commands).toContain('xvfb-run -a npm test');
    expect(commands).toContain('npm run dist');
    expect(commands.filter((command) => command.includes('npm run ci:smoke'))).toHaveLength(2);
  });

  it('runs nothing a developer cannot run locally: npm scripts that exist, npm ci, npm test', async () => {
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
