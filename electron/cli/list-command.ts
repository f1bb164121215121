/** `list`: the history, page by page, every task or the tasks of one service (or one compare). */
import type { ProviderId } from '../../shared/domain/providers';
import type { PictorCore } from '../core/pictor-core';
import type { CommonOptions } from './cli-args';
import { EXIT, jsonLine, listLine } from './cli-report';
import type { CliIo } from './commands';
import { listedServiceOf, type DEMO_OPTION } from './demo-choice';

export function listCommand(
  core: PictorCore,
  common: CommonOptions,
  io: CliIo,
  filter: {
    readonly provider: ProviderId | typeof DEMO_OPTION | null;
    /** --compare GROUP: the tasks of that compare only. */
    readonly compareGroup: string | null;
  },
): number {
  const service = filter.provider;
  const compare = filter.compareGroup === null ? {} : { compareGroup: filter.compareGroup };
  let cursor: string | null = null;
  do {
    const page = core.history.list({ limit: 500, cursor, ...compare });
    for (const record of page.items) {
      if (service !== null && listedServiceOf(record) !== service) continue;
      io.stdout(
        common.json
          ? `${jsonLine(record, (relative) => core.gallery.resolve(relative))}\n`
          : `${listLine(record)}\n`,
      );
    }
    cursor = page.nextCursor;
  } while (cursor);
  return EXIT.ok;
}
