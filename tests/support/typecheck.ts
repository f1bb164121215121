/**
 * `npm run typecheck`: the whole project's type check, as `tsc -p tsconfig.json --noEmit` does
 * it (the same program, options and diagnostics), and then, in the same program whose checker
 * has typed every file, its dead exports (tests/support/dead-exports.ts), recorded for the lint
 * test (tests/support/dead-exports-cache.ts) instead of that test building a second program;
 * and, in programs that reuse its syntax trees, what a new IPC channel and a new service cost
 * (tests/support/channel-cost.ts, tests/support/added-service.ts), recorded the same way.
 */
import ts from 'typescript';
import { filesAskedForAStub } from './added-service';
import { filesFailingAfter, withDummyChannel } from './channel-cost';
import { deadExportsIn, projectConfig } from './dead-exports';
import { recordDeadExports } from './dead-exports-cache';

const root = process.cwd();
const parsed = projectConfig(root);
const program = ts.createProgram({
  rootNames: parsed.fileNames,
  options: parsed.options,
  projectReferences: parsed.projectReferences,
  configFileParsingDiagnostics: parsed.errors,
});
const diagnostics = ts.sortAndDeduplicateDiagnostics(ts.getPreEmitDiagnostics(program));
const host: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => root,
  getNewLine: () => ts.sys.newLine,
};
if (diagnostics.length > 0) {
  const pretty = process.stdout.isTTY === true;
  const text = pretty
    ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host)
    : ts.formatDiagnostics(diagnostics, host);
  process.stdout.write(`${text}\nFound ${String(diagnostics.length)} error(s).\n`);
  process.exitCode = 2;
} else {
  // The channel's and the service's costs in programs that take this one's trees: each costs
  // only the type check of the files it asks about, not a second parse of the project.
  // A measure that throws (its anchor gone from the contract) is left out of the record: its
  // lint test measures anew and fails there with the reason, not the type check.
  recordDeadExports(root, parsed.fileNames, deadExportsIn(program, root), {
    channelCost: unlessThrown(() => filesFailingAfter(root, withDummyChannel, program)),
    addedService: unlessThrown(() => filesAskedForAStub(root, program)),
  });
}

function unlessThrown<T>(measure: () => T): T | undefined {
  try {
    return measure();
  } catch {
    return undefined;
  }
}
