/**
 * A copy of the library's templates and word lists in its own folder, so `pictor rebuild` (which
 * makes the history again from the folder: core/library/rebuild.ts) does not lose them:
 * `<gallery>/.pictor-templates/templates.json`, a Pictor template file
 * (template-export.ts) with the word lists beside its templates (`wordLists`, which Pictor's own
 * import ignores). It is written whole after every change (atomically: a temporary file renamed
 * over it, so a crash leaves the copy before or after, never half), and read back only by a
 * rebuild, checked entry by entry like any file anyone could have written. The folder's
 * `.pictor-` prefix marks it Pictor's own: an archive of the folder does not take it for a task.
 *
 * The copy follows the history, not the other way round: a change that cannot be written to the
 * folder (a read-only disk) is logged and kept in the history; the next change writes it all.
 * A library moved elsewhere gets its copy at its next change. A copy a newer Pictor wrote (a later
 * `schemaVersion`) is neither read nor written over: this version would restore only the entries
 * it can read, and its next change would replace the newer one's set with its own. Each write
 * passes the core's closing gate (core/base/closing-gate.ts) as it is asked: one asked before the
 * core closed is waited for by the close, one asked after is refused (logged; the history keeps
 * the change, and the next start's next change writes it all).
 */
import { join } from 'node:path';
import { z } from 'zod';
import { promptTemplateSchema, type PromptTemplate } from '../../../shared/domain/prompt-template';
import { MAX_WORD_LISTS, wordListSchema, type WordList } from '../../../shared/domain/word-lists';
import type { Logger } from '../../ports/logger';
import { ClosingGate } from '../base';
import { messageOf } from '../errors';
import { errorCode, ownFolder, readRegularFile, TEMP_DIR, writeFileAtomic } from '../fs';
import { MAX_TEMPLATE_FILE_BYTES, MAX_TEMPLATES_PER_FILE } from './template-files';
import { pictorTemplateFile, TEMPLATES_SCHEMA_VERSION } from './template-export';

const TEMPLATES_BACKUP_DIR = '.pictor-templates';
const BACKUP_FILE = 'templates.json';
/** The whole set may be larger than a file the user imports: 10,000 long bodies. */
const MAX_BACKUP_BYTES = 64 * MAX_TEMPLATE_FILE_BYTES;

/** What a backup holds, each entry checked; what is not is left out. */
export interface TemplateSet {
  readonly templates: PromptTemplate[];
  readonly wordLists: WordList[];
}

const backupSchema = z.object({
  templates: z.array(z.unknown()).max(MAX_TEMPLATES_PER_FILE),
  wordLists: z.array(z.unknown()).max(MAX_WORD_LISTS).optional(),
});

/** Whether `json` is a copy of a later schema than this version writes (a newer Pictor's). */
function newer(json: unknown): boolean {
  if (typeof json !== 'object' || json === null) return false;
  const version = (json as { schemaVersion?: unknown }).schemaVersion;
  return typeof version === 'number' && version > TEMPLATES_SCHEMA_VERSION;
}

function checked<T>(schema: z.ZodType<T>, entries: readonly unknown[]): T[] {
  return entries.flatMap((entry) => {
    const parsed = schema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

export class TemplateBackup {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly root: () => string,
    private readonly logger: Logger,
    /** Lets each write in, or refuses it once the core has closed; default one never closed. */
    private readonly gate: ClosingGate = new ClosingGate(),
  ) {}

  /**
   * Writes the set `snapshot()` gives when its turn comes (writes of one process run one after
   * the other, each with the set as it is then). Never throws: a failure is logged.
   */
  write(snapshot: () => TemplateSet): Promise<void> {
    return this.gate
      .write(() => {
        const next = this.writing.then(() => this.writeNow(snapshot));
        this.writing = next;
        return next;
      })
      .catch((error: unknown) => this.notWritten(error));
  }

  private async writeNow(snapshot: () => TemplateSet): Promise<void> {
    const root = this.root();
    try {
      const set = snapshot();
      const file = { ...pictorTemplateFile(set.templates), wordLists: set.wordLists };
      if (newer(await this.readJson())) {
        this.logger.warn("templates: a newer Pictor's copy in the library folder is kept as it is");
        return;
      }
      await ownFolder(root, TEMP_DIR);
      await ownFolder(root, TEMPLATES_BACKUP_DIR);
      const target = join(root, TEMPLATES_BACKUP_DIR, BACKUP_FILE);
      await writeFileAtomic(root, target, `${JSON.stringify(file, null, 2)}\n`);
    } catch (error) {
      this.notWritten(error);
    }
  }

  private notWritten(error: unknown): void {
    this.logger.warn('templates: the copy in the library folder was not written', {
      error: messageOf(error),
    });
  }

  /**
   * The set the folder's copy holds, or null when there is none, it cannot be read or a newer
   * Pictor wrote it.
   */
  async read(): Promise<TemplateSet | null> {
    const json = await this.readJson();
    if (newer(json)) {
      this.logger.warn("templates: the copy in the library folder is a newer Pictor's, not read");
      return null;
    }
    const parsed = backupSchema.safeParse(json);
    if (!parsed.success) return null;
    return {
      templates: checked(promptTemplateSchema(), parsed.data.templates),
      wordLists: checked(wordListSchema(), parsed.data.wordLists ?? []),
    };
  }

  /** The copy's JSON, or undefined when there is none or it is no JSON (logged when unreadable). */
  private async readJson(): Promise<unknown> {
    const root = this.root();
    let text: string;
    try {
      const path = join(root, TEMPLATES_BACKUP_DIR, BACKUP_FILE);
      text = (await readRegularFile(root, path, MAX_BACKUP_BYTES)).toString('utf8');
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        this.logger.warn('templates: the copy in the library folder cannot be read', {
          error: messageOf(error),
        });
      }
      return undefined;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
}
