/**
 * `list` with triage filters, a smart board (--smart NAME), or both: the images they match, one
 * line each (or JSON), a page at a time (list-paging.ts). It reads the history alone
 * (library-reader.ts); a smart board's rules are read by the caller, through the core's smart
 * boards (smart-board-commands.ts smartRules).
 */
import type { SmartRules } from '../../shared/domain/smart-board';
import { flagOf } from '../../shared/domain/triage';
import { VISIBLE_STATES } from '../../shared/domain/task-record';
import type { ImageQuery, TriageQuery } from '../core/history';
import { DEV_PROGRAM, EXIT } from './cli-report';
import type { CliIo } from './cli-io';
import type { CommonOptions } from './common-args';
import type { LibraryView } from './library-reader';
import { moreLine, printPage, type ListPage } from './list-paging';
import { jsonSafe, terminalSafe } from './terminal-text';

export async function listImages(
  view: LibraryView,
  common: CommonOptions,
  io: CliIo,
  filters: {
    readonly triage: TriageQuery | null;
    /** A smart board's rules (smart-board-commands.ts smartRules); null: none. */
    readonly smart: SmartRules | null;
    readonly template: string | null;
    readonly page: ListPage;
  },
): Promise<number> {
  // As the gallery lists them: an image in Pictor's trash is not listed.
  const query: ImageQuery = { ...filters.triage, states: VISIBLE_STATES };
  if (filters.template !== null) query.template = filters.template;
  if (filters.smart !== null) query.smart = filters.smart;
  const next = await printPage(
    filters.page,
    (limit, cursor) => view.history.listImages({ ...query, limit, cursor }),
    (item) => {
      const { image } = item;
      const ref = `${item.taskId ?? item.localId}#${String(item.index + 1)}`;
      const facts = {
        ref,
        localId: item.localId,
        rating: image.rating ?? 0,
        flag: flagOf(image),
        tags: image.tags ?? [],
        boards: image.boards ?? [],
        file: image.file ? view.gallery.resolve(image.file) : null,
        prompt: item.prompt,
      };
      io.stdout(
        common.json
          ? `${jsonSafe(JSON.stringify(facts))}\n`
          : `${terminalSafe(`${ref.padEnd(40)} ${'★'.repeat(facts.rating).padEnd(5)} ${facts.flag.padEnd(6)} ${facts.tags.join(', ')}`)}\n`,
      );
      return true;
    },
    io,
  );
  const more = moreLine(io.program ?? DEV_PROGRAM, filters.page, next, 'images');
  if (more !== null) io.stderr(more);
  return EXIT.ok;
}
