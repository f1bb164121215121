/**
 * `list`: the history, newest first, a page at a time (list-paging.ts): every task or the tasks
 * of one service (or one compare, or one template); with a triage filter, the images that match.
 * It reads the history alone (library-reader.ts), the core only for a smart board's rules.
 */
import { promptTemplateSchema } from '../../shared/domain/prompt-template';
import { UsageError } from '../core/command-line';
import type { CommonOptions } from './common-args';
import { argumentsOf } from './cli-args';
import type { Command } from './cli-command';
import { DEV_PROGRAM, EXIT, jsonLine, listLine } from './cli-report';
import type { CliIo } from './cli-io';
import { declareLibraryCommand, type ReadLine } from './library-command';
import { commandHelp } from './command-help';
import { common } from './common-args';
import { listPage, moreLine, printPage, type ListPage } from './list-paging';
import { listProvider } from './service-args';
import { compareGroupOption, findCompareGroup } from './task-ids';
import { listTriage } from './triage-args';
import { listImages } from './list-images';
import { readLibrary, type LibraryView } from './library-reader';
import type { ServiceId } from '../../shared/domain/service-id';

type List = Command & { name: 'list' };

async function listCommand(
  core: LibraryView,
  common: CommonOptions,
  io: CliIo,
  filter: {
    readonly provider: ServiceId | null;
    /** --compare GROUP: the tasks of that compare only. */
    readonly compareGroup: string | null;
    /** --template ID: the tasks made from that template only. */
    readonly template: string | null;
    readonly page: ListPage;
  },
): Promise<number> {
  const service = filter.provider;
  // The group's id or its start (task-ids.ts); one the history lacks lists nothing.
  const compare =
    filter.compareGroup === null
      ? {}
      : {
          compareGroup: findCompareGroup(core.history, filter.compareGroup) ?? filter.compareGroup,
        };
  const template = filter.template === null ? {} : { template: filter.template };
  const only = service === null ? {} : { provider: service };
  const next = await printPage(
    filter.page,
    // By service in the query (service-filter.ts: the demo's tasks are the demo's), so a page
    // holds its tasks only.
    (limit, cursor) => core.history.list({ ...template, ...compare, ...only, limit, cursor }),
    (record) => {
      io.stdout(
        common.json
          ? `${jsonLine(record, (relative) => core.gallery.resolve(relative))}\n`
          : `${listLine(record)}\n`,
      );
      return true;
    },
    io,
  );
  const more = moreLine(io.program ?? DEV_PROGRAM, filter.page, next, 'tasks');
  if (more !== null) io.stderr(more);
  // The listing's end: what it could not list (counted over two indexes, once a listing).
  const newer = next === null ? core.history.countNewerTasks() : 0;
  if (newer > 0) io.stderr(newerTasksLine(newer));
  return EXIT.ok;
}

/** Tasks a newer Pictor wrote, which `list` skips (the history cannot read them) and keeps. */
function newerTasksLine(count: number): string {
  const [tasks, they] =
    count === 1
      ? ['1 task in this library was', 'it is']
      : [`${count} tasks in this library were`, 'they are'];
  return (
    `${tasks} made by a newer version of Pictor (a state or a service this version does not ` +
    `know): ${they} not listed here, and kept as ${they}.\n`
  );
}

/** --template ID of list: a template's id (a UUID), as the history keeps it. */
function listTemplate(value: string | undefined): string | null {
  if (value === undefined) return null;
  const id = value.trim().toLowerCase();
  if (!promptTemplateSchema().shape.id.safeParse(id).success) {
    throw new UsageError(
      '--template needs a template id (a UUID, as `pictor template show NAME` prints it).',
    );
  }
  return id;
}

function parseList({ values, positionals }: ReadLine, env: NodeJS.ProcessEnv): List {
  argumentsOf('list', positionals, 0);
  const provider = listProvider(values.provider);
  const triage = listTriage(values);
  const smart = values.smart ?? null;
  return {
    name: 'list',
    provider,
    triage,
    smart,
    compareGroup: compareGroupOption(values.compare),
    template: listTemplate(values.template),
    page: listPage(values, triage !== null || smart !== null),
    common: common(values, env),
  };
}

const LIST_HELP = commandHelp(
  "list [--provider ID] [--limit N | --all] [--cursor C]\n                                  print the history, newest first, 50 tasks unless --limit N\n                                  says how many (--all: every one; --cursor C: the ones after\n                                  a page, as its last line on stderr says); each task with its\n                                  provider, or only the tasks of one provider (--template ID:\n                                  of one template); with --rating '>=4', --flag F,\n                                  --board PATH, --tag T (repeatable), --unfiled or --smart NAME\n                                  (a smart board), the images that match, one per line (or JSON\n                                  with --json); --compare GROUP: one compare group's tasks",
  ['service', 'library', 'json'],
);

export const list = declareLibraryCommand({
  name: 'list',
  help: LIST_HELP,
  own: [
    'limit',
    'all',
    'cursor',
    'template',
    'rating',
    'flag',
    'board',
    'tag',
    'unfiled',
    'smart',
    'compare',
  ],
  parse: parseList,
  run: (command: List, io) =>
    command.smart === null
      ? readLibrary(command.common, io, (library) =>
          command.triage === null
            ? listCommand(library, command.common, io, command)
            : listImages(library, command.common, io, { ...command, smart: null }),
        )
      : listSmartBoard(command, command.smart, io),
});

/** list --smart NAME: the board's rules are the core's to read (core/triage), so the whole core. */
async function listSmartBoard(command: List, name: string, io: CliIo): Promise<number> {
  const [{ runOnService }, { smartRules }] = await Promise.all([
    import('./commands'),
    import('./smart-board-commands'),
  ]);
  return runOnService(command, io, ({ core }) =>
    listImages(core, command.common, io, { ...command, smart: smartRules(core, name, io) }),
  );
}
