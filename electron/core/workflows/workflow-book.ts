/**
 * The ComfyUI workflows the user imported, each a model of that provider: one JSON file per
 * workflow in the data folder (`comfyui-workflows/<name>.json`, the folder 0700, the files 0600),
 * `{ version: 1, workflow: { graph, map } }`. The name is the model's id and the file's name, so
 * it is checked as both (a letter or digit first, then letters, digits, `.`, `_`, `-`; 64 at
 * most). A file is read as hostile (a regular file inside the folder, bounded, the schema's
 * structural limits), and an import is written whole or not at all. The window lists them and
 * removes one (ipc/workflow-handlers.ts).
 *
 * A file of a later `version` is a newer Pictor's workflow: this version cannot read it (it is not
 * listed, and a task cannot run it), and never writes over it: an import of the same name is
 * refused with a sentence saying so, so a downgrade does not lose the newer app's workflow.
 *
 * A save and a removal are a user's changes (the window's, `pictor comfy import`'s): they pass the
 * core's closing gate (core/base/closing-gate.ts), refused once the close has begun.
 */
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  MAX_WORKFLOW_BYTES,
  comfyWorkflowSchema,
  type ComfyWorkflow,
} from '../../../shared/domain/comfy-workflow';
import { ClosingGate } from '../base';
import { readRegularFile, writePrivateFile } from '../fs';
import { messageOf, UserFacingError } from '../errors';
import { sentence } from '../../../shared/i18n/sentence';

/** The folder under the data folder. */
const WORKFLOW_FOLDER = 'comfyui-workflows';
/** A workflow's name: the model id the compose form and `--model` name it by. */
const WORKFLOW_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A stored file: the workflow, its map and the JSON around them. */
const MAX_FILE_BYTES = 2 * MAX_WORKFLOW_BYTES;

/** Most workflows listed (a folder holding more is not one Pictor wrote). */
const MAX_LISTED_WORKFLOWS = 500;

/** A workflow the data folder refused (full, read-only): its sentence, the system's in detail. */
export class WorkflowSaveError extends UserFacingError {
  override readonly name = 'WorkflowSaveError';
}

/** The version of the files this Pictor writes and reads. */
const WORKFLOW_FILE_VERSION = 1;

const storedSchema = z.object({
  version: z.literal(WORKFLOW_FILE_VERSION),
  workflow: comfyWorkflowSchema(),
});

/** Whether `text` is a workflow file of a later version than this Pictor's (a newer Pictor's). */
function isNewerFile(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  const version = (parsed as { version?: unknown }).version;
  return Number.isSafeInteger(version) && (version as number) > WORKFLOW_FILE_VERSION;
}

/** Whether `name` can name a workflow (and a file). */
export function isWorkflowName(name: string): boolean {
  return WORKFLOW_NAME.test(name) && !/\.\.|\.$/.test(name);
}

export class WorkflowBook {
  constructor(
    private readonly dataDir: string,
    /** Lets each save and removal in, or refuses it once the core is closing; default never closed. */
    private readonly gate: ClosingGate = new ClosingGate(),
  ) {}

  private get folder(): string {
    return join(this.dataDir, WORKFLOW_FOLDER);
  }

  /**
   * Keeps `workflow` (checked) under `name`, replacing one of that name (whole or not at all)
   * unless a newer Pictor's file has that name.
   * @throws WorkflowSaveError when a newer Pictor's workflow has that name, or when the file
   *   cannot be written (a full or read-only disk); "Pictor is closing" once the core is closing.
   */
  save(name: string, workflow: ComfyWorkflow): Promise<void> {
    return this.gate.ask(() => this.keep(name, workflow));
  }

  /** {@link save}, let in by the gate. */
  private async keep(name: string, workflow: ComfyWorkflow): Promise<void> {
    if (!isWorkflowName(name))
      throw new RangeError(`"${name.slice(0, 80)}" cannot name a workflow.`);
    const checked = comfyWorkflowSchema().parse(workflow);
    const text = JSON.stringify({ version: WORKFLOW_FILE_VERSION, workflow: checked });
    const file = join(this.folder, `${name}.json`);
    const existing = await this.storedText(file);
    if (existing !== undefined && isNewerFile(existing)) {
      throw new WorkflowSaveError(sentence('error.workflow.newerKept', { name }));
    }
    try {
      await writePrivateFile(this.dataDir, file, text);
    } catch (error) {
      throw new WorkflowSaveError(sentence('error.workflow.notSaved', { folder: this.folder }), {
        detail: messageOf(error),
        cause: error,
      });
    }
  }

  /** The text of the stored file `file`, or undefined when there is none (or it is no file). */
  private async storedText(file: string): Promise<string | undefined> {
    try {
      return (await readRegularFile(this.folder, file, MAX_FILE_BYTES)).toString('utf8');
    } catch {
      return undefined;
    }
  }

  /** The workflow named `name`, or undefined when there is none (or its file is not one). */
  async lookup(name: string): Promise<ComfyWorkflow | undefined> {
    if (!isWorkflowName(name)) return undefined;
    const text = await this.storedText(join(this.folder, `${name}.json`));
    if (text === undefined) return undefined;
    try {
      const parsed = storedSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data.workflow : undefined;
    } catch {
      return undefined;
    }
  }

  /** The workflows kept, by name, each with its map; a file that is not one is left out. */
  async list(): Promise<Array<{ name: string; workflow: ComfyWorkflow }>> {
    let entries: string[];
    try {
      entries = await readdir(this.folder);
    } catch {
      return [];
    }
    const names = entries
      .filter((entry) => entry.endsWith('.json'))
      .map((entry) => entry.slice(0, -'.json'.length))
      .filter(isWorkflowName)
      .sort((a, b) => a.localeCompare(b))
      .slice(0, MAX_LISTED_WORKFLOWS);
    const rows = await Promise.all(
      names.map(async (name) => ({ name, workflow: await this.lookup(name) })),
    );
    return rows.flatMap((row) =>
      row.workflow ? [{ name: row.name, workflow: row.workflow }] : [],
    );
  }

  /**
   * Forgets the workflow named `name` (its file, never what a link points to); false: none.
   * @throws "Pictor is closing" once the core is closing (nothing removed).
   */
  remove(name: string): Promise<boolean> {
    return this.gate.ask(async () => {
      if (!isWorkflowName(name)) return false;
      try {
        await unlink(join(this.folder, `${name}.json`));
        return true;
      } catch {
        return false;
      }
    });
  }
}
