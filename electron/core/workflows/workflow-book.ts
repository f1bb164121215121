/**
 * The ComfyUI workflows the user imported, each a model of that provider: one JSON file per
 * workflow in the data folder (`comfyui-workflows/<name>.json`, the folder 0700, the files 0600),
 * `{ version: 1, workflow: { graph, map } }`. The name is the model's id and the file's name, so
 * it is checked as both, by the one rule of a workflow's name (shared/domain/workflow-name.ts: the
 * letters, and nothing Windows reads as another name). A file is read as hostile (a regular file
 * inside the folder, bounded, the schema's structural limits), and an import is written whole or
 * not at all. The window lists them and removes one (ipc/workflow-handlers.ts).
 *
 * Names that differ only in case (`Portrait`, `portrait`) are one workflow on every system, as
 * they are one file on macOS and Windows, where a library may move: a save under the other
 * spelling replaces the workflow as a save under its own name does, and it keeps the name it was
 * kept under; a lookup and a removal find it by either. A folder with two such files (written on
 * Linux by an older Pictor) keeps both: each is found by its own name, and a save or a lookup by a
 * third spelling, which cannot tell which, is refused, saying so. A workflow an older Pictor kept
 * under a name the rule now refuses (`CON`, a device on Windows) is still listed, run and removed;
 * only a new save under such a name is refused.
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
import {
  isKeptWorkflowName,
  workflowNameProblem,
  workflowNameRefusal,
} from '../../../shared/domain/workflow-name';
import { foldedName } from '../../../shared/text/file-names';
import { ClosingGate } from '../base';
import { readRegularFile, writePrivateFile } from '../fs';
import { messageOf, UserFacingError } from '../errors';
import { sentence } from '../../../shared/i18n/sentence';

/** The folder under the data folder. */
const WORKFLOW_FOLDER = 'comfyui-workflows';
/** A stored file: the workflow, its map and the JSON around them. */
const MAX_FILE_BYTES = 2 * MAX_WORKFLOW_BYTES;

/** Most workflows listed (a folder holding more is not one Pictor wrote). */
const MAX_LISTED_WORKFLOWS = 500;

/** A workflow the data folder refused (full, read-only): its sentence, the system's in detail. */
export class WorkflowSaveError extends UserFacingError {
  override readonly name = 'WorkflowSaveError';
}

/**
 * A name the book cannot keep a workflow under: one the rule refuses, or one that folds to two
 * kept workflows' names and is neither (nothing is written).
 */
export class WorkflowNameError extends UserFacingError {
  override readonly name = 'WorkflowNameError';
  constructor(problem: string) {
    super(sentence('error.workflow.refused', { problem }), { code: 'bad_input' });
  }
}

/** Which kept name `name` names: itself or its one twin; none; or its twins, when it cannot tell. */
type Resolved =
  { readonly kept: string } | { readonly kept: undefined; readonly twins: readonly string[] };

/**
 * Which of `kept` (the names a book holds) `name` names: itself when kept; else the one kept name
 * that differs from it only in case or Unicode form (one file where macOS and Windows keep it);
 * else none, or, when several do, their names (the book cannot tell which).
 */
function resolveWorkflowName(name: string, kept: readonly string[]): Resolved {
  if (kept.includes(name)) return { kept: name };
  const key = foldedName(name);
  const twins = kept.filter((other) => foldedName(other) === key).sort();
  const [only] = twins;
  return only !== undefined && twins.length === 1 ? { kept: only } : { kept: undefined, twins };
}

/** The sentence refusing a name that folds to several kept names, `twins` (the first few said). */
function twinsRefusal(twins: readonly string[]): string {
  const said = twins.length > 3 ? `${twins.slice(0, 3).join(', ')}…` : twins.join(', ');
  return `The workflows ${said} have names that differ only in case, which macOS and Windows take for one file, so Pictor cannot tell which this name means: use one of those names, or remove one of them.`;
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
   * Keeps `workflow` (checked) under `name`, replacing the workflow of that name or of a name that
   * differs from it only in case (whole or not at all), unless a newer Pictor's file is that one.
   * @returns the name it is kept under: `name`, or the other spelling the book already had.
   * @throws WorkflowNameError when the rule refuses `name` or it means several kept workflows;
   *   WorkflowSaveError when a newer Pictor's workflow has that name, or when the file cannot be
   *   written (a full or read-only disk); "Pictor is closing" once the core is closing.
   */
  save(name: string, workflow: ComfyWorkflow): Promise<string> {
    return this.gate.ask(() => this.keep(name, workflow));
  }

  /** {@link save}, let in by the gate. */
  private async keep(name: string, workflow: ComfyWorkflow): Promise<string> {
    const problem = workflowNameProblem(name);
    if (problem) throw new WorkflowNameError(workflowNameRefusal(problem));
    const checked = comfyWorkflowSchema().parse(workflow);
    const text = JSON.stringify({ version: WORKFLOW_FILE_VERSION, workflow: checked });
    const resolved = resolveWorkflowName(name, await this.keptNames());
    if (resolved.kept === undefined && resolved.twins.length > 0)
      throw new WorkflowNameError(twinsRefusal(resolved.twins));
    // The spelling kept, written as it is: the same file on every disk, folding or not.
    const kept = resolved.kept ?? name;
    const file = this.fileOf(kept);
    const existing = await this.storedText(file);
    if (existing !== undefined && isNewerFile(existing)) {
      throw new WorkflowSaveError(sentence('error.workflow.newerKept', { name: kept }));
    }
    try {
      await writePrivateFile(this.dataDir, file, text);
    } catch (error) {
      throw new WorkflowSaveError(sentence('error.workflow.notSaved', { folder: this.folder }), {
        detail: messageOf(error),
        cause: error,
      });
    }
    return kept;
  }

  private fileOf(kept: string): string {
    return join(this.folder, `${kept}.json`);
  }

  /** The names of the folder's files a kept workflow may have, as the disk spells them. */
  private async keptNames(): Promise<string[]> {
    let entries: string[];
    try {
      entries = await readdir(this.folder);
    } catch {
      return [];
    }
    return entries
      .filter((entry) => entry.endsWith('.json'))
      .map((entry) => entry.slice(0, -'.json'.length))
      .filter(isKeptWorkflowName);
  }

  /** The kept name `name` means (itself, or its one other spelling), or undefined. */
  private async keptNameOf(name: string): Promise<string | undefined> {
    if (!isKeptWorkflowName(name)) return undefined;
    return resolveWorkflowName(name, await this.keptNames()).kept;
  }

  /** The text of the stored file `file`, or undefined when there is none (or it is no file). */
  private async storedText(file: string): Promise<string | undefined> {
    try {
      return (await readRegularFile(this.folder, file, MAX_FILE_BYTES)).toString('utf8');
    } catch {
      return undefined;
    }
  }

  /**
   * The workflow named `name` or a name that differs from it only in case, or undefined when there
   * is none (or its file is not one, or several such names are kept and none is `name`).
   */
  async lookup(name: string): Promise<ComfyWorkflow | undefined> {
    const kept = await this.keptNameOf(name);
    return kept === undefined ? undefined : this.read(kept);
  }

  /** The workflow in the file of the kept name `kept`, or undefined when it is not one. */
  private async read(kept: string): Promise<ComfyWorkflow | undefined> {
    const text = await this.storedText(this.fileOf(kept));
    if (text === undefined) return undefined;
    try {
      const parsed = storedSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data.workflow : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The workflows kept, by name, each with its map; a file that is not one is left out. A name the
   * rule refuses now (an older Pictor's `CON`) is listed as it is, so it can be run and removed.
   */
  async list(): Promise<Array<{ name: string; workflow: ComfyWorkflow }>> {
    const names = (await this.keptNames())
      .sort((a, b) => a.localeCompare(b))
      .slice(0, MAX_LISTED_WORKFLOWS);
    const rows = await Promise.all(
      names.map(async (name) => ({ name, workflow: await this.read(name) })),
    );
    return rows.flatMap((row) =>
      row.workflow ? [{ name: row.name, workflow: row.workflow }] : [],
    );
  }

  /**
   * Forgets the workflow named `name` or a name that differs from it only in case (its file, never
   * what a link points to); false: none, or several such and none is `name`.
   * @throws "Pictor is closing" once the core is closing (nothing removed).
   */
  remove(name: string): Promise<boolean> {
    return this.gate.ask(async () => {
      const kept = await this.keptNameOf(name);
      if (kept === undefined) return false;
      try {
        await unlink(this.fileOf(kept));
        return true;
      } catch {
        return false;
      }
    });
  }
}
