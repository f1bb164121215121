/** `list`: the history, page by page, every task or the tasks of one service (or one compare, or one template). */
import { promptTemplateSchema } from '../../shared/domain/prompt-template';
import { UsageError } from '../core/command-line';
import type { PictorCore } from '../core/pictor-core';
import type { CommonOptions } from './cli-args';
import { EXIT, jsonLine, listLine } from './cli-report';
import type { CliIo } from './commands';
import { findCompareGroup } from './task-ids';
import { serviceIdOf, type ServiceId } from '../../shared/domain/service-id';

export function listCommand(
  core: PictorCore,
  common: CommonOptions,
  io: CliIo,
  filter: {
    readonly provider: ServiceId | null;
    /** --compare GROUP: the tasks of that compare only. */
    readonly compareGroup: string | null;
    /** --template ID: the tasks made from that template only. */
    readonly template: string | null;
  },
): number {
  const service = filter.provider;
  // The group's id or its start (task-ids.ts); one the history lacks lists nothing.
  const compare =
    filter.compareGroup === null
      ? {}
      : {
          compareGroup: findCompareGroup(core.history, filter.compareGroup) ?? filter.compareGroup,
        };
  const template = filter.template === null ? {} : { template: filter.template };
  let cursor: string | null = null;
  do {
    const page = core.history.list({ ...template, ...compare, limit: 500, cursor });
    for (const record of page.items) {
      if (service !== null && serviceIdOf(record) !== service) continue;
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

/** --template ID of list: a template's id (a UUID), as the history keeps it. */
export function listTemplate(value: string | undefined): string | null {
  if (value === undefined) return null;
  const id = value.trim().toLowerCase();
  if (!promptTemplateSchema.shape.id.safeParse(id).success) {
    throw new UsageError(
      '--template needs a template id (a UUID, as `pictor template show NAME` prints it).',
    );
  }
  return id;
}
