/**
 * `npm run ci:refuses-debugger -- [--installed | --executable PATH]`: the packaged app (by default
 * what `npm run dist` left in release/; `--installed`, the installed one) started with each
 * debugger switch must exit 2 at once, before any window, saying on stderr what it refused
 * (adapters/debugger-guard.ts). The release job runs it on its signed builds; a test build
 * (PICTOR_TEST_BUILD=1, CI's smoke) keeps the switches and fails here, as it should. Exits 0 or 1.
 * A dry run (PICTOR_CI_DRY=1) finds the app and says what it would start.
 */
import path from 'node:path';
import { ciArgsOrExit } from '../../../electron/build/ci-args.mjs';
import { ciContext, skippedLine, type CiContext } from '../../../electron/build/ci-context';
import { DEBUGGER_SWITCHES, checkRefused, commandLine, installedApp } from './installed-app';
import { findPackagedExecutable } from './packaged-app';
import { runCommand } from './run-command';

const SCRIPT = {
  name: 'ci:refuses-debugger',
  usage: 'npm run ci:refuses-debugger -- [--installed | --executable PATH]',
  options: { installed: { type: 'boolean' }, executable: { type: 'string' } },
} as const;

function executable(context: CiContext, values: { installed?: boolean; executable?: string }) {
  if (values.installed === true) return installedApp(context.platform, process.env);
  return (
    values.executable ??
    findPackagedExecutable(path.join(context.root, 'release'), context.platform, context.arch)
  );
}

async function main(args: readonly string[]): Promise<number> {
  const { values } = ciArgsOrExit(SCRIPT, args);
  const context = ciContext(SCRIPT.name);
  if (values.installed === true && values.executable !== undefined) {
    console.error('refuses-debugger: give --installed or --executable, not both');
    return 2;
  }
  const app = executable(context, values);
  if (context.dry) {
    console.log(
      skippedLine(
        SCRIPT.name,
        `starting ${app} with ${DEBUGGER_SWITCHES.join(', ')}`,
        'a dry run starts no app: the stand-in Electron runs nothing',
      ),
    );
    return 0;
  }
  let failed = 0;
  for (const arg of DEBUGGER_SWITCHES) {
    // A build that does not refuse starts its window instead: killed after a minute, it fails.
    const result = await runCommand(commandLine(app, [arg]), process.env, 60_000);
    const verdict = checkRefused(arg, result.code, result.output);
    if (verdict.ok) console.log(`refuses-debugger: ${verdict.line}`);
    else {
      failed += 1;
      console.error(`refuses-debugger: FAILED: ${verdict.problem}`);
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
