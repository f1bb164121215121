/**
 * `npm run ci:release-preflight`: the release job's first check, before anything is built. It
 * refuses, each with a sentence (release-guards.ts): a tag that is not `v` + package.json's
 * version (GITHUB_REF_NAME), a Mac signature without notarisation (PICTOR_MAC_SIGNED,
 * PICTOR_MAC_NOTARISED), and a private repository's test feed (PICTOR_REPOSITORY_PRIVATE), whose
 * files answer 404 to the old app. Exits 0 or 1. It only reads, so a dry run (PICTOR_CI_DRY=1)
 * decides as a runner does, for the OS it stands in for.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ciArgsOrExit } from '../../../electron/build/ci-args.mjs';
import { REPOSITORY_ROOT, ciContext } from '../../../electron/build/ci-context';
import { notarisationProblem, privateFeedProblem, tagVersionProblem } from './release-guards';

ciArgsOrExit(
  { name: 'ci:release-preflight', usage: 'npm run ci:release-preflight', options: {} },
  process.argv.slice(2),
);
const CONTEXT = ciContext('ci:release-preflight');

/** This checkout's version: what the release builds (a dry run's stand-in root has only release/). */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : '';
}

/** The refusals for this environment, in the order they are checked. */
function preflightProblems(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  const tag = env['GITHUB_REF_NAME'] ?? '';
  return [
    tag === ''
      ? 'GITHUB_REF_NAME names no tag: the release job runs on a version tag (v<version>).'
      : tagVersionProblem(tag, packageVersion()),
    notarisationProblem(platform, {
      signed: env['PICTOR_MAC_SIGNED'] === 'true',
      notarised: env['PICTOR_MAC_NOTARISED'] === 'true',
    }),
    privateFeedProblem(env['PICTOR_REPOSITORY_PRIVATE'] === 'true'),
  ].filter((problem): problem is string => problem !== null);
}

const problems = preflightProblems(process.env, CONTEXT.platform);
for (const problem of problems) console.error(`release-preflight: REFUSED: ${problem}`);
if (problems.length === 0)
  console.log(
    `release-preflight: ok: ${process.env['GITHUB_REF_NAME'] ?? ''} is package.json's version, and this run can sign what it builds`,
  );
process.exitCode = problems.length === 0 ? 0 : 1;
