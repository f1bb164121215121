/**
 * `npm run dist` after the build: electron-builder for this OS (arguments after `--` go to it:
 * `npm run dist -- --mac --arm64`), with the update feed release-feed.ts decides. Exits 1 before
 * packing anything when that feed is missing from a release build or is a placeholder, or when a
 * release is asked of a test build. A release build signs and notarises with what its
 * environment holds, and says what it skipped (release-signing.ts). On macOS a run that failed on
 * one of hdiutil's passing errors ("Resource busy") runs again, at most four runs in all
 * (transient-retry.ts). Its own options and electron-builder's that CI and the README use are
 * known (ci-args.mjs); any other is refused. A dry run (PICTOR_CI_DRY=1, ci-context.ts) decides
 * the feed and signing and says the electron-builder command it would run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ciArgsOrExit } from './ci-args.mjs';
import { ciContext, skippedLine } from './ci-context';
import { builderArgs, decideFeed } from './release-feed';
import { signingPlan } from './release-signing';
import {
  HDIUTIL_RETRIES,
  failedOnTransientHdiutil,
  retryTransient,
  type Attempt,
} from './transient-retry';

/** Runs `command`, its output passed on as it comes and kept for the retry's decision. */
function runTeed(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<Attempt> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['inherit', 'pipe', 'pipe'], env });
    let output = '';
    const keep = (chunk: Buffer, to: NodeJS.WriteStream) => {
      to.write(chunk);
      // The tail is enough to tell an hdiutil error; a whole build's log is not kept.
      output = (output + chunk.toString()).slice(-64 * 1024);
    };
    child.stdout.on('data', (chunk: Buffer) => keep(chunk, process.stdout));
    child.stderr.on('data', (chunk: Buffer) => keep(chunk, process.stderr));
    child.on('error', (error) => resolve({ code: null, output: `${output}${error.message}` }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A release build's environment: its signing, each part said or skipped. */
function releaseEnv(platform: NodeJS.Platform): NodeJS.ProcessEnv {
  const plan = signingPlan(process.env, platform, (text) => {
    const file = join(mkdtempSync(join(tmpdir(), 'pictor-notary-')), 'AuthKey.p8');
    writeFileSync(file, text, { mode: 0o600 });
    return file;
  });
  for (const line of plan.lines) console.log(`dist: ${line}`);
  return plan.env;
}

/** What `npm run dist --` takes: --release, and electron-builder's OS, CPU and target words. */
const DIST_SCRIPT = {
  name: 'dist',
  usage:
    'npm run dist -- [--release] [--mac | --win | --linux] [--x64] [--arm64] [--universal] [--dir] [target…]',
  options: {
    release: { type: 'boolean' },
    mac: { type: 'boolean' },
    win: { type: 'boolean' },
    linux: { type: 'boolean' },
    x64: { type: 'boolean' },
    arm64: { type: 'boolean' },
    universal: { type: 'boolean' },
    dir: { type: 'boolean' },
  },
  anyWords: true,
} as const;

async function main(args: readonly string[]): Promise<number> {
  ciArgsOrExit(DIST_SCRIPT, args);
  const context = ciContext('dist');
  const decision = decideFeed(process.env, args);
  if (!decision.ok) {
    console.error(`dist: ${decision.problem}`);
    return 1;
  }
  console.log(
    decision.feed
      ? `dist: update feed ${decision.feed}`
      : 'dist: no update feed (set PICTOR_UPDATE_FEED for a release): this build never checks for updates',
  );
  if (decision.testBuild)
    console.log(
      'dist: a test build (PICTOR_TEST_BUILD=1): its app accepts a debugger, for CI’s smoke; never publish it',
    );
  const builder = join(
    dirname(createRequire(import.meta.url).resolve('electron-builder/package.json')),
    'cli.js',
  );
  const command = [builder, ...builderArgs(decision, args)];
  const env = decision.release ? releaseEnv(context.platform) : process.env;
  if (context.dry) {
    console.log(
      skippedLine(
        'dist',
        `electron-builder ${command.slice(1).join(' ')}`,
        'a dry run packs nothing',
      ),
    );
    return 0;
  }
  const policy =
    process.platform === 'darwin'
      ? { ...HDIUTIL_RETRIES, transient: failedOnTransientHdiutil }
      : { ...HDIUTIL_RETRIES, attempts: 1 };
  const outcome = await retryTransient(() => runTeed(process.execPath, command, env), policy, {
    sleep: (ms) => sleep(ms),
    say: (line) => console.log(`dist: electron-builder ${line}`),
  });
  return outcome.code ?? 1;
}

process.exitCode = await main(process.argv.slice(2));
