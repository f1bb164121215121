/**
 * The triage commands on the library (triage-args.ts parses them): the same core actions as the
 * window's keys (electron/core/triage/), so the CLI refuses the same things with the same
 * sentences, and an open app shows the change as another process's (its history's change feed).
 */
import { findTask } from './task-ids';
import type { ImageRecord } from '../../shared/domain/task-record';
import { MAX_TAGS_PER_IMAGE } from '../../shared/domain/triage';
import { englishText, sentence } from '../../shared/i18n/sentence';
import { quotedOr, UsageError } from '../core/command-line';
import type { ImageRef } from '../core/gallery';
import { smartCommand } from './smart-board-commands';
import type { PictorCore } from '../core/pictor-core';
import type { TriageChange, TriageOutcome } from '../core/triage';
import { writeMetadataToFiles } from '../core/batch';
import { rejectsIn } from '../core/triage';
import { EXIT } from './cli-report';
import type { CliIo } from './cli-io';
import { terminalSafe } from './terminal-text';
import type { BoardAction, TriageCommand, TriageCommandLine } from './triage-args';

const REF = /^(.+?)(?:#([1-9]\d{0,4}))?$/;

/**
 * The images the refs name, each once. @throws UsageError naming every ref the history does not
 * have (a task it does not know, an image number past the task's images, one in the trash).
 */
export function resolveRefs(core: PictorCore, refs: readonly string[]): ImageRef[] {
  const found = new Map<string, ImageRef>();
  const unknown: string[] = [];
  for (const ref of refs) {
    const [, id = '', number] = REF.exec(ref) ?? [];
    const record = findTask(core.history, id);
    const usable = (image: ImageRecord | undefined) =>
      image !== undefined && image.state !== 'deleted';
    const positions = !record
      ? []
      : number === undefined
        ? record.images.flatMap((image, n) => (usable(image) ? [n] : []))
        : usable(record.images[Number(number) - 1])
          ? [Number(number) - 1]
          : [];
    // A ref whose task the library has is repeated; another could be a key typed in its place.
    if (!record || positions.length === 0)
      unknown.push(
        record ? `"${ref}"` : quotedOr(ref, 'one that is not repeated (it could be a key)'),
      );
    for (const index of positions)
      found.set(`${record?.localId ?? ''}#${String(index)}`, {
        localId: record?.localId ?? '',
        index,
      });
  }
  if (unknown.length > 0) {
    throw new UsageError(`No such image in the library: ${unknown.join(', ')}.`);
  }
  return [...found.values()];
}

export async function triageCommand(
  core: PictorCore,
  command: TriageCommandLine,
  io: CliIo,
): Promise<number> {
  /** One change to the images named, then how many it changed. */
  const apply = async (refs: readonly string[], change: TriageChange, did: string) =>
    applied(io, await core.triage.apply(resolveRefs(core, refs), change), did);
  switch (command.name) {
    case 'rate':
      return apply(
        command.refs,
        { kind: 'rating', rating: command.rating },
        `rated ★${String(command.rating)}`,
      );
    case 'flag':
      return apply(command.refs, { kind: 'flag', flag: command.flag }, `flagged ${command.flag}`);
    case 'tag': {
      const change: TriageChange = { kind: 'tag', tag: command.tag, add: command.add };
      return apply(command.refs, change, command.add ? 'tagged' : 'untagged');
    }
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
  const deps = { records: core.engine, gallery: core.gallery };
  const done = await writeMetadataToFiles(deps, resolveRefs(core, refs));
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

function applied(io: CliIo, outcome: TriageOutcome, did: string): number {
  const images = (n: number) => `${String(n)} image${n === 1 ? '' : 's'}`;
  const parts = [`${images(outcome.changed)} ${did}`];
  if (outcome.unchanged > 0) parts.push(`${images(outcome.unchanged)} already so`);
  io.stdout(`${parts.join('; ')}.\n`);
  if (outcome.refused === 0) return EXIT.ok;
  // Images the tag could not go on: the catalogue's sentence, as the window says it.
  const full = { max: MAX_TAGS_PER_IMAGE, count: outcome.refused };
  io.stderr(`${englishText(sentence('error.triage.tooManyTagsOnImage', full))}\n`);
  return EXIT.failed;
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
