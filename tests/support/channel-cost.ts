/**
 * What a new IPC channel costs: the project's files that import the IPC layer (the contract, its
 * parts, main's wiring and bridge: every file a channel's types reach) type-checked with a request
 * and an event added to the contract's schemas in memory, and the files that then fail to compile
 * counted: each is a file someone must edit to add a channel. Only those files are checked (the
 * files they import are read for their types, not checked), not the whole program: a second whole
 * program beside the typecheck's took minutes on a loaded machine.
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
  const roots = ipcFiles(parsed.fileNames, contractPath);
  const program = ts.createProgram({ rootNames: roots, options: parsed.options, host });
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
