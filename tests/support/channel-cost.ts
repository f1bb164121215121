/**
 * What a new IPC channel costs: the project's files that import the IPC layer (the contract, its
 * parts, main's wiring and bridge: every file a channel's types reach) type-checked with a request
 * and an event added to the contract's schemas in memory, and the files that then fail to compile
 * counted: each is a file someone must edit to add a channel. The program holds the whole
 * project, as the typecheck's does (its trees and module resolutions reused), but only those files
 * are checked: checking the whole program a second time took minutes on a loaded machine.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { projectConfig } from './dead-exports';
import { hostReusing } from './reused-sources';

const CONTRACT = 'shared/ipc/contract.ts';
const REQUEST_ANCHOR = '  ...inputRequests,\n';
const EVENT_ANCHOR = '  ...costEvents,\n';

/** contract.ts's text with a dummy request and a dummy event added to its schemas. */
export function withDummyChannel(text: string): string {
  if (!text.includes(REQUEST_ANCHOR) || !text.includes(EVENT_ANCHOR))
    throw new Error('The contract no longer has the anchors this measure adds after.');
  const request = `  'dummy:ping': { input: z.object({ n: z.number() }), output: z.object({ n: z.number() }) },\n`;
  const event = `  'dummy:pinged': z.object({ n: z.number() }),\n`;
  return text
    .replace(REQUEST_ANCHOR, REQUEST_ANCHOR + request)
    .replace(EVENT_ANCHOR, EVENT_ANCHOR + event);
}

/** An import from a folder named `ipc` (shared/ipc, electron/ipc). */
const IMPORTS_IPC = /\bfrom\s+'[^']*\bipc\/[^']+'/;

/** The project's files that import the IPC layer, and the contract itself. */
function ipcFiles(fileNames: readonly string[], contractPath: string): string[] {
  return fileNames.filter(
    (name) => name === contractPath || IMPORTS_IPC.test(readFileSync(name, 'utf8')),
  );
}

/**
 * The files importing the IPC layer (relative to `root`) with type errors once the contract is
 * `edit`ed; `reuse` is a program of the same files whose syntax trees are taken (the typecheck's).
 */
export function filesFailingAfter(
  root: string,
  edit: (text: string) => string,
  reuse?: ts.Program,
): string[] {
  const parsed = projectConfig(root);
  const host = hostReusing(parsed.options, reuse);
  const contractPath = `${root}/${CONTRACT}`;
  const { getSourceFile, readFile } = host;
  host.readFile = (name) => {
    const text = readFile.call(host, name);
    return name === contractPath && text !== undefined ? edit(text) : text;
  };
  host.getSourceFile = (name, language, onError, create) => {
    if (name !== contractPath) return getSourceFile.call(host, name, language, onError, create);
    const text = host.readFile(name);
    return text === undefined ? undefined : ts.createSourceFile(name, text, language, true);
  };
  // The whole project's program, as the typecheck's (the declarations that widen a module's types,
  // such as a global setup's `declare module 'vitest'`, are in files no IPC file imports: a
  // program of the IPC files alone failed a test for the missing declaration, not the channel),
  // of which only the IPC files are checked.
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host,
    ...(reuse ? { oldProgram: reuse } : {}),
  });
  const roots = ipcFiles(parsed.fileNames, contractPath);
  const failing = roots.filter((name) => {
    const file = program.getSourceFile(name);
    return (
      file !== undefined &&
      (program.getSyntacticDiagnostics(file).length > 0 ||
        program.getSemanticDiagnostics(file).length > 0)
    );
  });
  return failing.map((name) => relative(root, name)).sort();
}
