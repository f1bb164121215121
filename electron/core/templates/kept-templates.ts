/**
 * The library's templates as the core keeps them: in the history's rows, with their copy in the
 * library folder (wherever the folder is at each change: its `root` is read at each write).
 */
import type { Logger } from '../../ports/logger';
import type { ClosingGate } from '../base';
import { TemplateBackup } from './template-backup';
import { TemplateStore, type TemplateStoreDeps } from './template-store';

/** The time, the log, and how the copy's writes are let in (the core's closing gate). */
interface KeptTemplatesOptions {
  readonly now: () => number;
  readonly logger: Logger;
  readonly gate: ClosingGate;
}

export function keptTemplates(
  rows: TemplateStoreDeps['rows'],
  library: { readonly root: string },
  { now, logger, gate }: KeptTemplatesOptions,
): TemplateStore {
  const backup = new TemplateBackup(() => library.root, logger, gate);
  // A user's change once the close has begun is refused (its copy's writes pass the same gate).
  return new TemplateStore({ rows, now, backup, gate });
}
