/**
 * A ComfyUI workflow's name, the one rule every front checks it by (the book, core/workflows;
 * `pictor comfy import`; the `workflows:` channels' contract; the window's form). The name is the
 * model's id (the compose form, `--model`, a task's record) and its file's name in the data folder
 * (`comfyui-workflows/<name>.json`), a folder that travels with the library from one system to
 * another: so it is judged as a file name on every system at once, by the one home of those rules
 * (shared/text/file-names.ts).
 *
 * A new name (a save, an import): a letter or digit first, then letters, digits, `.`, `_` or `-`,
 * 64 at most, no `..`; nothing Windows reads as another name (a device: `CON`, `nul`, `aux.v2`,
 * `COM1`; a trailing dot or space) and no invisible character. A kept name (a file the book
 * already holds, which an older Pictor wrote, on Linux say, where `CON.json` is a file) needs the
 * letters alone: such a workflow stays listed, usable and removable, never lost for its name.
 *
 * Two names that differ only in case or Unicode form (`Portrait`, `portrait`) are one workflow, on
 * every system: one file where macOS and Windows keep a library, so one on Linux too
 * (`foldedName`; the book resolves them, workflow-book.ts).
 */
import { hasInvisible, windowsNameRule } from '../text/file-names';

/** Longest workflow name, in characters. */
export const MAX_WORKFLOW_NAME_CHARS = 64;

/** The letters of a workflow's name (new or kept); `..` and a trailing dot are refused too. */
const LETTERS = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Why a name cannot name a new workflow: `form` (not the letters, or too long), `device` (Windows
 * reads it as a device), `ending` (it ends in a dot or a space, which Windows drops), `invisible`.
 */
export type WorkflowNameProblem = 'form' | 'device' | 'ending' | 'invisible';

/** Whether `name` has the letters of a workflow's name (a kept one may be no more). */
function hasLetters(name: string): boolean {
  return LETTERS.test(name) && !/\.\.|\.$/.test(name);
}

/** Why `name` cannot name a new workflow, or null when it can. */
export function workflowNameProblem(name: string): WorkflowNameProblem | null {
  if (name.length > MAX_WORKFLOW_NAME_CHARS) return 'form';
  if (hasInvisible(name)) return 'invisible';
  const rule = windowsNameRule(name);
  if (rule === 'ending') return 'ending';
  if (!hasLetters(name)) return 'form';
  // Read before the first dot, the device is the same in `<name>.json`, the file's name.
  return rule === 'device' ? 'device' : null;
}

/** Whether `name` can name a new workflow (a save, an import). */
export function isWorkflowName(name: string): boolean {
  return workflowNameProblem(name) === null;
}

/**
 * Whether `name` can be a workflow the book already holds: the letters of a name, as an older
 * Pictor checked them, so a workflow it kept under a device's name is still read and removed.
 */
export function isKeptWorkflowName(name: string): boolean {
  return hasLetters(name);
}

/** The sentence for `problem`, as the CLI prints it and the window's refusal carries it. */
export function workflowNameRefusal(problem: WorkflowNameProblem): string {
  switch (problem) {
    case 'device':
      return 'Windows reads a name that is CON, PRN, AUX, NUL, COM0 to COM9 or LPT0 to LPT9 before its first dot as a device, not a file: choose another name, so the workflow opens on every system.';
    case 'ending':
      return 'A workflow’s name cannot end in a dot or a space, which Windows drops from a file’s name.';
    case 'invisible':
      return 'A workflow’s name cannot hold an invisible character.';
    case 'form':
      return 'A workflow’s name is a letter or digit, then letters, digits, ".", "_" or "-" (no "..", 64 at most).';
  }
}
