/**
 * A ComfyUI workflow file on its way to the book (workflow-book.ts), the one way both fronts take:
 * `pictor comfy import` and the window's import (ipc/workflow-handlers.ts). The file is read as
 * hostile (a regular file, bounded by MAX_WORKFLOW_BYTES), parsed as the API format, and checked
 * with its map (shared/domain/comfy-prompt.ts) before anything is written. Each refusal is the
 * sentence the checks wrote.
 */
import { dirname } from 'node:path';
import {
  mappedWorkflow,
  readWorkflowText,
  type WorkflowReading,
} from '../../../shared/domain/comfy-prompt';
import {
  MAX_WORKFLOW_BYTES,
  type ComfyWorkflow,
  type WorkflowGraph,
  type WorkflowMap,
} from '../../../shared/domain/comfy-workflow';
import { readRegularFile } from '../fs';
import type { WorkflowBook } from './workflow-book';

/** The workflow graph in the file at `path`, or why not (unreadable: `unreadable` is true). */
export async function readWorkflowFile(
  path: string,
): Promise<WorkflowReading | { readonly ok: false; readonly unreadable: true }> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(dirname(path), path, MAX_WORKFLOW_BYTES);
  } catch {
    return { ok: false, unreadable: true };
  }
  return readWorkflowText(bytes.toString('utf8'));
}

/**
 * `graph` with `map` kept in `book` as `name`, with the name it is kept under (another spelling
 * of `name` the book already had: workflow-book.ts), or why not (nothing written then).
 * @throws what the book's save throws (a name it refuses, a disk that refuses the file).
 */
export async function saveMappedWorkflow(
  book: WorkflowBook,
  name: string,
  graph: WorkflowGraph,
  map: WorkflowMap,
): Promise<{ ok: true; workflow: ComfyWorkflow; name: string } | { ok: false; problem: string }> {
  const mapped = mappedWorkflow(graph, map);
  if (!mapped.ok) return mapped;
  return { ...mapped, name: await book.save(name, mapped.workflow) };
}
