/**
 * The triage changes of named images (`rate`, `flag`, `tag`; a board's `add` and `remove` and the
 * MCP server's tools): the refs read against the history, the change made by the core's triage
 * actions, what it did said as the window says it. `rate`, `flag` and `tag` run on the library
 * alone (library-triage.ts), the other triage commands on the whole core
 * (triage-commands.ts).
 */
import { isVisibleImage, type ImageRecord } from '../../shared/domain/task-record';
import { MAX_TAGS_PER_IMAGE } from '../../shared/domain/triage';
import { englishText, sentence } from '../../shared/i18n/sentence';
import { quotedOr, UsageError } from '../core/command-line';
import type { ImageRef } from '../core/gallery';
import type { PictorCore } from '../core/pictor-core';
import type { TriageChange, TriageOutcome } from '../core/triage';
import type { CliIo } from './cli-io';
import { EXIT } from './cli-report';
import { findTask } from './task-ids';
import type { TriageCommand } from './triage-args';

/** The triage commands that change named images alone (no board, no sidecar of their own). */
export type ImageTriageCommand = TriageCommand & { readonly name: 'rate' | 'flag' | 'tag' };

export function isImageTriage(command: TriageCommand): command is ImageTriageCommand {
  return command.name === 'rate' || command.name === 'flag' || command.name === 'tag';
}

/** What a change of named images needs of the library: its history and its triage actions. */
export type TriageLibrary = Pick<PictorCore, 'history' | 'triage'>;

/** `rate`, `flag` or `tag` on the images `command` names: how many it changed. */
export async function applyImageTriage(
  library: TriageLibrary,
  command: ImageTriageCommand,
  io: CliIo,
): Promise<number> {
  const [change, did] = changeOf(command);
  return applied(io, await library.triage.apply(resolveRefs(library, command.refs), change), did);
}

/** The change a command makes, and the words that say it was made. */
function changeOf(command: ImageTriageCommand): [TriageChange, string] {
  switch (command.name) {
    case 'rate':
      return [{ kind: 'rating', rating: command.rating }, `rated ★${String(command.rating)}`];
    case 'flag':
      return [{ kind: 'flag', flag: command.flag }, `flagged ${command.flag}`];
    case 'tag':
      return [
        { kind: 'tag', tag: command.tag, add: command.add },
        command.add ? 'tagged' : 'untagged',
      ];
  }
}

const REF = /^(.+?)(?:#([1-9]\d{0,4}))?$/;

/**
 * The images the refs name, each once. @throws UsageError naming every ref the history does not
 * have (a task it does not know, an image number past the task's images, one in the trash).
 */
export function resolveRefs(
  core: Pick<PictorCore, 'history'>,
  refs: readonly string[],
): ImageRef[] {
  const found = new Map<string, ImageRef>();
  const unknown: string[] = [];
  for (const ref of refs) {
    const [, id = '', number] = REF.exec(ref) ?? [];
    const record = findTask(core.history, id);
    const usable = (image: ImageRecord | undefined) => image !== undefined && isVisibleImage(image);
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

export function applied(io: CliIo, outcome: TriageOutcome, did: string): number {
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
