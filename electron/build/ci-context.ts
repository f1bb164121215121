/**
 * Where a CI script runs and whether it acts: the repository (its release/), the OS and CPU whose
 * installers it handles, and the dry run. `PICTOR_CI_DRY=1` is the mode the workflow test
 * (tests/packaging/ci-steps.test.ts) runs every step of .github/workflows in on this Linux
 * machine: a script parses its arguments, finds and reads its files and makes every decision as
 * on a runner, and then, for each action this machine cannot take (an installer run, sudo, a
 * download, a container), prints `<script>: skipped: <what> (<why>)` instead of taking it. Only
 * in a dry run may PICTOR_CI_ROOT, PICTOR_CI_PLATFORM and PICTOR_CI_ARCH stand in for the
 * repository and the runner's OS and CPU (a stand-in release/ of another OS's layout).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository this file is in. */
export const REPOSITORY_ROOT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
);

const PLATFORMS: readonly NodeJS.Platform[] = ['linux', 'darwin', 'win32'];
const ARCHS: readonly string[] = ['x64', 'arm64'];

export interface CiContext {
  /** The repository whose release/ (and release-previous/) the script reads. */
  readonly root: string;
  readonly platform: NodeJS.Platform;
  readonly arch: string;
  /** PICTOR_CI_DRY=1: decide everything, act on nothing this machine cannot do. */
  readonly dry: boolean;
}

/** The host as Node sees it. */
export interface Host {
  readonly platform: NodeJS.Platform;
  readonly arch: string;
}

const STAND_INS = ['PICTOR_CI_ROOT', 'PICTOR_CI_PLATFORM', 'PICTOR_CI_ARCH'] as const;

/** The context from `env`, or why it is refused (a stand-in outside a dry run, an unknown OS). */
export function readCiContext(
  env: NodeJS.ProcessEnv,
  host: Host = { platform: process.platform, arch: process.arch },
): { ok: true; context: CiContext } | { ok: false; problem: string } {
  const dry = env['PICTOR_CI_DRY'] === '1';
  const given = STAND_INS.filter((name) => (env[name] ?? '') !== '');
  if (!dry && given.length > 0)
    return {
      ok: false,
      problem: `${given.join(', ')} ${given.length === 1 ? 'stands' : 'stand'} in for the runner only in a dry run (PICTOR_CI_DRY=1).`,
    };
  const platform = (env['PICTOR_CI_PLATFORM'] || host.platform) as NodeJS.Platform;
  const arch = env['PICTOR_CI_ARCH'] || host.arch;
  if (!PLATFORMS.includes(platform))
    return { ok: false, problem: `CI runs on ${PLATFORMS.join(', ')}, not ${platform}.` };
  if (!ARCHS.includes(arch))
    return { ok: false, problem: `CI builds for ${ARCHS.join(', ')}, not ${arch}.` };
  const root = path.resolve(env['PICTOR_CI_ROOT'] || REPOSITORY_ROOT);
  return { ok: true, context: { root, platform, arch, dry } };
}

/** The context of this process, or exits 2 saying why it is refused. */
export function ciContext(script: string): CiContext {
  const read = readCiContext(process.env);
  if (read.ok) return read.context;
  console.error(`${script}: ${read.problem}`);
  return process.exit(2);
}

/** The line a dry run prints for an action it did not take. */
export function skippedLine(script: string, what: string, why: string): string {
  return `${script}: skipped: ${what} (${why})`;
}
