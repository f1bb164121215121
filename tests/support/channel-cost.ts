/**
 * What a new IPC channel costs: the project's whole program (tsconfig.json) type-checked with a
 * request and an event added to the contract's schemas in memory, and the files that then fail
 * to compile counted: each is a file someone must edit to add a channel.
 */
import { relative } from 'node:path';
import ts from 'typescript';
import { projectConfig } from './dead-exports';

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

/** The project's files (relative to `root`) with type errors once the contract is `edit`ed. */
export function filesFailingAfter(root: string, edit: (text: string) => string): string[] {
  const parsed = projectConfig(root);
  const host = ts.createCompilerHost(parsed.options);
  const contractPath = `${root}/${CONTRACT}`;
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => {
    const text = readFile(name);
    return name === contractPath && text !== undefined ? edit(text) : text;
  };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
  const failing = new Set<string>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    if (diagnostic.file) failing.add(relative(root, diagnostic.file.fileName));
  }
  return [...failing].sort();
}
