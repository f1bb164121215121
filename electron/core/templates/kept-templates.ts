/**
 * The library's templates as the core keeps them: in the history's rows, with their copy in the
 * library folder (wherever the folder is at each change: `root` is read at each write).
 */
import type { Logger } from '../../ports/logger';
import { TemplateBackup } from './template-backup';
import { TemplateStore, type TemplateStoreDeps } from './template-store';

export function keptTemplates(
  rows: TemplateStoreDeps['rows'],
  root: () => string,
  now: () => number,
  logger: Logger,
): TemplateStore {
  return new TemplateStore({ rows, now, backup: new TemplateBackup(root, logger) });
}
