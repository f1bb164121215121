/**
 * `npm run ci:refuses-debugger -- [--installed | --executable PATH]`: the packaged app (by default
 * what `npm run dist` left in release/; `--installed`, the installed one) started with each
 * debugger switch must exit 2 at once, before any window, saying on stderr what it refused
 * (adapters/debugger-guard.ts). The release job runs it on its signed builds; a test build
 * (PICTOR_TEST_BUILD=1, CI's smoke) keeps the switches and fails here, as it should. Exits 0 or 1.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEBUGGER_SWITCHES, checkRefused, commandLine, installedApp } from './installed-app';
import { findPackagedExecutable } from './packaged-app';
import { runCommand } from './run-command';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function executable(args: readonly string[]): string {
  if (args.includes('--installed')) return installedApp(process.platform, process.env);
  const index = args.indexOf('--executable');
  return (
    (index === -1 ? undefined : args[index + 1]) ??
    findPackagedExecutable(path.join(ROOT, 'release'))
  );
}

async function main(args: readonly string[]): Promise<number> {
  const app = executable(args);
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
