/**
 * The triage commands on the library (triage-args.ts parses them): the same core actions as the
 * window's keys (electron/core/triage/), so the CLI refuses the same things with the same
 * sentences, and an open app shows the change as another process's (its history's change feed).
 */
import { smartCommand } from './smart-board-commands';
import type { PictorCore } from '../core/pictor-core';
import type { TriageChange } from '../core/triage';
import { rejectsIn } from '../core/triage';
import { EXIT } from './cli-report';
import type { CliIo } from './cli-io';
import { applied, applyImageTriage, isImageTriage, resolveRefs } from './triage-apply';
import { terminalSafe } from './terminal-text';
import type { BoardAction, TriageCommand, TriageCommandLine } from './triage-args';

/** The triage commands but `rate`, `flag` and `tag` (triage-apply.ts), on the whole core. */
export async function triageCommand(
  core: PictorCore,
  command: TriageCommandLine,
  io: CliIo,
): Promise<number> {
  if (isImageTriage(command)) return applyImageTriage(core, command, io);
  switch (command.name) {
    case 'board':
      return await board(core, command.action, io);
    case 'write-metadata':
      return await writeMetadata(core, command.refs, io);
    case 'purge-rejected':
      return await purgeRejected(core, command, io);
    case 'smart':
      return smartCommand(core, command.action, io, command.common.json);
  }
}

async function writeMetadata(
  core: PictorCore,
  refs: readonly string[],
  io: CliIo,
): Promise<number> {
  const done = await core.writeMetadata(resolveRefs(core, refs));
  const parts = [`${String(done.written)} written`, `${String(done.unchanged)} already so`];
  if (done.withCredentials > 0) {
    parts.push(
      `${String(done.withCredentials)} with Content Credentials left as they are (their .xmp has it)`,
    );
  }
  if (done.failed > 0) parts.push(`${String(done.failed)} could not be written`);
  io.stdout(`${parts.join('; ')}.\n`);
  return done.failed > 0 ? EXIT.failed : EXIT.ok;
}

async function board(core: PictorCore, action: BoardAction, io: CliIo): Promise<number> {
  switch (action.kind) {
    case 'ls':
      for (const row of core.boards.list()) {
        io.stdout(`${terminalSafe(row.path)}\t${String(row.images)}\n`);
      }
      return EXIT.ok;
    case 'create':
      io.stdout(`Created ${terminalSafe(core.boards.create(action.path))}.\n`);
      return EXIT.ok;
    case 'rm': {
      const tasks = core.boards.delete(action.path);
      io.stdout(
        `Deleted the board; ${String(tasks)} task${tasks === 1 ? '' : 's'} left it (no image was deleted).\n`,
      );
      return EXIT.ok;
    }
    case 'mv': {
      const moved = core.boards.moveTo(action.path, action.to);
      io.stdout(`Moved ${terminalSafe(moved.from)} to ${terminalSafe(moved.to)}.\n`);
      return EXIT.ok;
    }
    case 'add':
    case 'remove': {
      const refs = resolveRefs(core, action.refs);
      const change: TriageChange = { kind: 'board', path: action.path, add: action.kind === 'add' };
      return applied(
        io,
        await core.triage.apply(refs, change),
        action.kind === 'add' ? 'added' : 'removed',
      );
    }
  }
}

async function purgeRejected(
  core: PictorCore,
  command: TriageCommand & { name: 'purge-rejected' },
  io: CliIo,
): Promise<number> {
  const { images: keys, bytes } = rejectsIn(core.history, command.board, Number.MAX_SAFE_INTEGER);
  const size = `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const count = `${String(keys.length)} rejected image${keys.length === 1 ? '' : 's'}`;
  if (!command.yes) {
    io.stdout(
      `${count} (${size}) would go to Pictor's trash. Run again with --yes to move them.\n`,
    );
    return EXIT.ok;
  }
  const outcome = await core.trash.deleteImages(keys);
  io.stdout(
    `${count} (${size}) moved to Pictor's trash${outcome.failed > 0 ? `; ${String(outcome.failed)} could not be moved` : ''}.\n`,
  );
  return outcome.failed > 0 ? EXIT.failed : EXIT.ok;
}
