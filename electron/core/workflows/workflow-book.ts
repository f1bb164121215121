/**
 * The ComfyUI workflows the user imported, each a model of that provider: one JSON file per
 * workflow in the data folder (`comfyui-workflows/<name>.json`, the folder 0700, the files 0600),
 * `{ version: 1, workflow: { graph, map } }`. The name is the model's id and the file's name, so
 * it is checked as both (a letter or digit first, then letters, digits, `.`, `_`, `-`; 64 at
 * most). A file is read as hostile (a regular file inside the folder, bounded, the schema's
 * structural limits), and an import is written whole or not at all. The window lists them and
 * removes one (ipc/workflow-handlers.ts).
 */
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  MAX_WORKFLOW_BYTES,
  comfyWorkflowSchema,
  type ComfyWorkflow,
} from '../../../shared/domain/comfy-workflow';
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

const storedSchema = z.object({ version: z.literal(1), workflow: comfyWorkflowSchema() });

/** Whether `name` can name a workflow (and a file). */
export function isWorkflowName(name: string): boolean {
  return WORKFLOW_NAME.test(name) && !/\.\.|\.$/.test(name);
}

export class WorkflowBook {
  constructor(private readonly dataDir: string) {}

  private get folder(): string {
    return join(this.dataDir, WORKFLOW_FOLDER);
  }

  /**
   * Keeps `workflow` (checked) under `name`, replacing one of that name (whole or not at all).
   * @throws WorkflowSaveError when the file cannot be written (a full or read-only disk).
   */
  async save(name: string, workflow: ComfyWorkflow): Promise<void> {
    if (!isWorkflowName(name))
      throw new RangeError(`"${name.slice(0, 80)}" cannot name a workflow.`);
    const checked = comfyWorkflowSchema().parse(workflow);
    const text = JSON.stringify({ version: 1, workflow: checked });
    try {
      await writePrivateFile(this.dataDir, join(this.folder, `${name}.json`), text);
    } catch (error) {
      throw new WorkflowSaveError(sentence('error.workflow.notSaved', { folder: this.folder }), {
        detail: messageOf(error),
        cause: error,
      });
    }
  }

  /** The workflow named `name`, or undefined when there is none (or its file is not one). */
  async lookup(name: string): Promise<ComfyWorkflow | undefined> {
    if (!isWorkflowName(name)) return undefined;
    let bytes: Buffer;
    try {
      bytes = await readRegularFile(this.folder, join(this.folder, `${name}.json`), MAX_FILE_BYTES);
    } catch {
      return undefined;
    }
    try {
      const parsed = storedSchema.safeParse(JSON.parse(bytes.toString('utf8')));
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

  /** Forgets the workflow named `name` (its file, never what a link points to); false: none. */
  async remove(name: string): Promise<boolean> {
    if (!isWorkflowName(name)) return false;
    try {
      await unlink(join(this.folder, `${name}.json`));
      return true;
    } catch {
      return false;
    }
  }
}
