/**
 * The CLI's commands: one line each, its name and the loader of its declaration
 * (command-declaration.ts), in the order `pictor help` lists them. A command's file is loaded only
 * when that command runs (or its help is shown), so `pictor --version` and a one-record command
 * do not load every command, its parsers and its schemas. A new command is its file and a line here.
 */
import type { CliCommand } from './command-declaration';

export const COMMANDS = {
  generate: () => import('./generate-command').then((m) => m.generate),
  demo: () => import('./generate-command').then((m) => m.demo),
  resume: () => import('./resume-command').then((m) => m.resume),
  track: () => import('./track-command').then((m) => m.track),
  cancel: () => import('./cancel-command').then((m) => m.cancel),
  list: () => import('./list-command').then((m) => m.list),
  compare: () => import('./compare-command').then((m) => m.compare),
  edit: () => import('./edit-command').then((m) => m.edit),
  upscale: () => import('./edit-command').then((m) => m.upscale),
  models: () => import('./models-command').then((m) => m.models),
  comfy: () => import('./comfy-command').then((m) => m.comfy),
  rebuild: () => import('./library-commands').then((m) => m.rebuild),
  export: () => import('./library-commands').then((m) => m.exportLibrary),
  import: () => import('./library-commands').then((m) => m.importLibrary),
  'self-test': () => import('./self-test-command').then((m) => m.selfTest),
  info: () => import('./info-command').then((m) => m.info),
  costs: () => import('./costs-command').then((m) => m.costs),
  caps: () => import('./costs-command').then((m) => m.caps),
  prices: () => import('./costs-command').then((m) => m.prices),
  rate: () => import('./triage-command').then((m) => m.rate),
  flag: () => import('./triage-command').then((m) => m.flag),
  tag: () => import('./triage-command').then((m) => m.tag),
  board: () => import('./triage-command').then((m) => m.board),
  'write-metadata': () => import('./triage-command').then((m) => m.writeMetadata),
  'purge-rejected': () => import('./triage-command').then((m) => m.purgeRejected),
  smart: () => import('./triage-command').then((m) => m.smart),
  template: () => import('./template-command').then((m) => m.template),
  'local-servers': () => import('./local-servers-command').then((m) => m.localServers),
  mcp: () => import('./mcp-command').then((m) => m.mcp),
} as const satisfies Record<string, () => Promise<CliCommand>>;

export type CommandName = keyof typeof COMMANDS;

/** The commands, in the help's order. */
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}
