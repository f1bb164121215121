/**
 * `npm run ci:verify-signature`: the release job's check of its signed, installed app. macOS:
 * `codesign --verify --deep --strict`, Gatekeeper's `spctl --assess` and the notarisation ticket
 * stapled to the app (`stapler validate`); Windows: the Authenticode signature of the installer in
 * release/ and of the installed Pictor.exe must be Valid. Where the job had no signing secret
 * (PICTOR_MAC_SIGNED / PICTOR_WIN_SIGNED not `true`) it says so and checks nothing;
 * Linux packages are signed by the repository that serves them. A Mac signed but not notarised
 * fails with a sentence before any check (release-guards.ts), never at `spctl`. Exits 0 or 1. A
 * dry run (PICTOR_CI_DRY=1) finds the files it would check and says which checks it would run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ciArgsOrExit } from '../../../electron/build/ci-args.mjs';
import { ciContext, skippedLine } from '../../../electron/build/ci-context';
import { installedApp, installerIn } from './installed-app';
import { notarisationProblem } from './release-guards';

ciArgsOrExit(
  { name: 'ci:verify-signature', usage: 'npm run ci:verify-signature', options: {} },
  process.argv.slice(2),
);
const CONTEXT = ciContext('ci:verify-signature');
const RELEASE = path.join(CONTEXT.root, 'release');
/** Each check's limit: spctl and stapler ask Apple's servers, which can hang. */
const CHECK_LIMIT_MS = 5 * 60_000;

function dryRun(what: string, file: string): boolean {
  console.log(
    skippedLine('ci:verify-signature', `${what}: ${file}`, 'a dry run runs no OS signing tool'),
  );
  return true;
}

function run(what: string, command: string, args: string[]): boolean {
  if (CONTEXT.dry) return dryRun(what, args.at(-1) ?? '');
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: CHECK_LIMIT_MS });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  const ok = result.status === 0;
  console.log(`signature: ${ok ? 'ok' : 'FAILED'}: ${what}${output ? `\n${output}` : ''}`);
  return ok;
}

function mac(): boolean {
  const bundle = path.dirname(path.dirname(path.dirname(installedApp('darwin', process.env))));
  const checks = [
    run('codesign --verify --deep --strict', 'codesign', [
      '--verify',
      '--deep',
      '--strict',
      '--verbose=2',
      bundle,
    ]),
    run('Gatekeeper accepts it (spctl --assess)', 'spctl', [
      '--assess',
      '--type',
      'execute',
      '--verbose=2',
      bundle,
    ]),
  ];
  checks.push(run('its notarisation ticket is stapled', 'xcrun', ['stapler', 'validate', bundle]));
  return checks.every(Boolean);
}

/** PowerShell's verdict on one file's Authenticode signature: `Valid` passes. */
function authenticode(file: string): boolean {
  if (CONTEXT.dry) return dryRun('Authenticode', file);
  const script = `(Get-AuthenticodeSignature -LiteralPath '${file.replaceAll("'", "''")}').Status`;
  const result = spawnSync('powershell', ['-NoProfile', '-NonInteractive', '-Command', script], {
    encoding: 'utf8',
    timeout: CHECK_LIMIT_MS,
  });
  const status = (result.stdout ?? '').trim();
  console.log(
    `signature: ${status === 'Valid' ? 'ok' : 'FAILED'}: Authenticode ${status || '?'}: ${file}`,
  );
  return status === 'Valid';
}

function windows(): boolean {
  const installer = path.join(RELEASE, installerIn(readdirSync(RELEASE), 'win32', CONTEXT.arch));
  return [authenticode(installer), authenticode(installedApp('win32', process.env))].every(Boolean);
}

function main(): number {
  const platform = CONTEXT.platform;
  if (platform === 'linux') {
    console.log(
      'signature: skipped: the deb and rpm are signed by the repository that serves them',
    );
    return 0;
  }
  const signed = platform === 'darwin' ? 'PICTOR_MAC_SIGNED' : 'PICTOR_WIN_SIGNED';
  if (process.env[signed] !== 'true') {
    const secret = platform === 'darwin' ? 'MAC_CSC_LINK' : 'WIN_CSC_LINK';
    console.log(`signature: skipped: this run had no ${secret} secret, so nothing was signed`);
    return 0;
  }
  const unnotarised = notarisationProblem(platform, {
    signed: true,
    notarised: process.env['PICTOR_MAC_NOTARISED'] === 'true',
  });
  if (unnotarised) {
    console.error(`signature: FAILED: ${unnotarised}`);
    return 1;
  }
  return (platform === 'darwin' ? mac() : windows()) ? 0 : 1;
}

process.exitCode = main();
