/**
 * What the MCP tools say about a task or an image: plain facts, as JSON text. Images are named by
 * reference (`task-id#N`, the service's task id when it has one), never by a path, so an agent
 * only ever hands back what Pictor gave it.
 */
import { flagOf } from '../../../shared/domain/triage';
import { verdictKind } from '../../../shared/domain/content-credentials';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { serviceIdOf } from '../../../shared/domain/service-id';
import { cliWording } from '../cli-report';

/** The reference of image `index` (0-based) of `record`: `task-id#N`, N from 1. */
export function imageRefOf(record: { taskId: string | null; localId: string }, index: number) {
  return `${record.taskId ?? record.localId}#${String(index + 1)}`;
}

/** An image's triage and credentials, as every tool says them. */
export function imageFacts(image: ImageRecord) {
  return {
    state: image.state,
    width: image.width ?? null,
    height: image.height ?? null,
    rating: image.rating ?? 0,
    flag: flagOf(image),
    tags: image.tags ?? [],
    boards: image.boards ?? [],
    contentCredentials: image.contentCredentials
      ? verdictKind(image.contentCredentials)
      : 'not checked',
    // What Pictor left out of its metadata for a held key (`list --json`, `pictor info` say it too).
    keyRemoved: image.keyRemoved ?? null,
  };
}

/** A task as task_status, generate and resume answer it. */
export function taskFacts(record: TaskRecord) {
  return {
    localId: record.localId,
    taskId: record.taskId,
    status: record.status,
    // One name per service, as `list --json`, the window and the CSV say it: `demo` for the
    // built-in demo's tasks whatever dialect they spoke (shared/domain/service-id.ts).
    service: serviceIdOf(record),
    prompt: record.request.prompt,
    model: record.request.model ?? null,
    seed: record.seed ?? null,
    error: record.error ? cliWording(record.error.message) : null,
    cost: record.cost ?? null,
    images: record.images.map((image, index) => ({
      ref: imageRefOf(record, index),
      ...imageFacts(image),
    })),
  };
}
