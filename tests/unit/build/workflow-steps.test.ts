/**
 * How the workflow step runner (tests/packaging/ci-steps.test.ts) reads the workflows'
 * commands (tests/packaging/workflow-steps.ts): each shape a step uses, the matrix expanded per
 * leg, conditions on the runner's OS, env expressions; and what it cannot read throws.
 */
import { describe, expect, it } from 'vitest';
import {
  commandsOf,
  envValue,
  expandMatrix,
  holdsOn,
  legsOf,
  parseCommand,
  type Workflow,
} from '../../packaging/workflow-steps';

const WORKFLOW: Workflow = {
  jobs: {
    checks: { 'runs-on': 'ubuntu-24.04', steps: [{ run: 'npm ci' }] },
    os: {
      'runs-on': '${{ matrix.os }}',
      env: { HOME_CACHE: '${{ github.workspace }}/.cache' },
      strategy: {
        matrix: {
          include: [
            { name: 'Linux', os: 'ubuntu-24.04', arch: 'x64', dist: '--x64' },
            { name: 'Mac', os: 'macos-15', arch: 'arm64', dist: '--x64 --arm64' },
          ],
        },
      },
      steps: [
        { uses: 'actions/checkout@v5' } as never,
        { name: 'build', run: 'npm run dist -- --release ${{ matrix.dist }}' },
        {
          name: 'smoke',
          if: "runner.os == 'Linux'",
          run: 'xvfb-run -a npm run ci:smoke -- --installed',
        },
        { name: 'smoke', if: "runner.os != 'Linux'", run: 'npm run ci:smoke -- --installed' },
        { name: 'env', run: 'npm run --silent ci:chromium >> "$GITHUB_ENV"', env: { A: '1' } },
      ],
    },
  },
};

describe('workflow steps', () => {
  it('one leg per matrix entry, one for a job without a matrix', () => {
    expect(legsOf(WORKFLOW).map((leg) => [leg.job, leg.name, leg.os, leg.arch])).toEqual([
      ['checks', 'checks', 'Linux', 'x64'],
      ['os', 'Linux', 'Linux', 'x64'],
      ['os', 'Mac', 'macOS', 'arm64'],
    ]);
  });

  it('each leg’s commands, with its matrix values and only the steps its OS runs', () => {
    const shown = commandsOf(WORKFLOW).map((command) => [
      command.leg.name,
      command.script,
      command.npm.join(' '),
      command.args.join(' '),
      command.xvfb,
    ]);
    expect(shown).toEqual([
      ['checks', 'ci', 'ci', '', false],
      ['Linux', 'dist', 'run dist', '--release --x64', false],
      ['Linux', 'ci:smoke', 'run ci:smoke', '--installed', true],
      ['Linux', 'ci:chromium', 'run --silent ci:chromium', '', false],
      ['Mac', 'dist', 'run dist', '--release --x64 --arm64', false],
      ['Mac', 'ci:smoke', 'run ci:smoke', '--installed', false],
      ['Mac', 'ci:chromium', 'run --silent ci:chromium', '', false],
    ]);
    expect(commandsOf(WORKFLOW).at(-1)?.env).toEqual({
      HOME_CACHE: '${{ github.workspace }}/.cache',
      A: '1',
    });
  });

  it('what it cannot read throws: another expression, condition or command', () => {
    expect(() => expandMatrix('npm run x -- ${{ github.sha }}', {})).toThrow(/cannot be expanded/);
    expect(() => expandMatrix('npm run x -- ${{ matrix.nope }}', {})).toThrow(/cannot be expanded/);
    expect(() => holdsOn("runner.arch == 'X64'", 'Linux')).toThrow(/not one the runner reads/);
    expect(() => parseCommand('make all')).toThrow(/does not run an npm script/);
    expect(() => parseCommand('npm test; rm -rf x')).toThrow(/not a plain npm command/);
    expect(() => parseCommand('npm exec foo')).toThrow(/npm run NAME/);
  });

  it('env expressions: the workspace, absent secrets and variables, format()', () => {
    const [leg] = legsOf(WORKFLOW).slice(1);
    if (!leg) throw new Error('no leg');
    const runner = { workspace: '/w', repository: 'o/r', refName: 'v1.2.3' };
    expect(envValue('${{ github.workspace }}/.cache', leg, runner)).toBe('/w/.cache');
    expect(envValue("${{ secrets.MAC_CSC_LINK != '' }}", leg, runner)).toBe('false');
    expect(envValue('${{ secrets.MAC_CSC_LINK }}', leg, runner)).toBe('');
    expect(
      envValue(
        "${{ vars.FEED || format('https://github.com/{0}/releases/download/test-feed-{1}/', github.repository, github.ref_name) }}",
        leg,
        runner,
      ),
    ).toBe('https://github.com/o/r/releases/download/test-feed-v1.2.3/');
    expect(() => envValue('${{ hashFiles(x) }}', leg, runner)).toThrow(/not one the step runner/);
  });

  it('the release job’s expressions: all of several secrets, a public repository, a leg’s feed', () => {
    const [leg] = legsOf(WORKFLOW).slice(1);
    if (!leg) throw new Error('no leg');
    const runner = { workspace: '/w', repository: 'o/r', refName: 'v1.2.3' };
    expect(
      envValue("${{ secrets.A != '' && secrets.B != '' && secrets.C != '' }}", leg, runner),
    ).toBe('false');
    expect(envValue('${{ github.event.repository.private }}', leg, runner)).toBe('false');
    expect(
      envValue(
        "${{ format('https://github.com/{0}/releases/download/test-feed-{1}-{2}/', github.repository, github.ref_name, matrix.name) }}",
        leg,
        runner,
      ),
    ).toBe(
      `https://github.com/o/r/releases/download/test-feed-v1.2.3-${leg.matrix['name'] ?? ''}/`,
    );
  });

  it('a clean-up step (`if: always()`) runs on every OS', () => {
    for (const os of ['Linux', 'macOS', 'Windows'] as const)
      expect(holdsOn('always()', os)).toBe(true);
    expect(() => holdsOn('failure()', 'Linux')).toThrow(/not one the runner reads/);
  });
});
