/**
 * What the MCP tools say about a task or an image: plain facts, as JSON text. Images are named by
 * reference (`task-id#N`, the service's task id when it has one), never by a path, so an agent
 * only ever hands back what Pictor gave it. A service's id may hold any character but spaces and
 * controls (service/task-id.ts); one a reference cannot carry (a `/`, a `#`, the app's sweep's
 * `[redacted]`…) gives way to the task's local id, so every reference given is one taken back. So
 * does an id that carries a key the server holds (a task kept before ids were checked): every
 * answer is scrubbed of the key on its way out (mcp-server.ts), which would leave `[redacted]`.
 */
import { flagOf } from '../../../shared/domain/triage';
import { verdictKind } from '../../../shared/domain/content-credentials';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { serviceIdOf } from '../../../shared/domain/service-id';
import { carriesKey, type SecretKeys } from '../../core/secrets';
import { cliWording } from '../cli-report';

/** A task's id as a reference carries it: what the tools that take one back accept. */
const REF_ID = '[A-Za-z0-9._:-]{4,300}';

/** An image reference as the tools take it: `task-id#N` (N from 1), or a task's id alone. */
export const IMAGE_REF = new RegExp(`^${REF_ID}(#[1-9]\\d{0,4})?$`);
const WHOLE_REF_ID = new RegExp(`^${REF_ID}$`);

/**
 * The reference of image `index` (0-based) of `record`: `task-id#N`, N from 1; the local id for a
 * task id a reference cannot carry or that carries one of `keys` (see above).
 */
export function imageRefOf(
  record: { taskId: string | null; localId: string },
  index: number,
  keys: SecretKeys,
) {
  const { taskId, localId } = record;
  const usable = taskId !== null && WHOLE_REF_ID.test(taskId) && !carriesKey(taskId, keys);
  const id = usable ? taskId : localId;
  return `${id}#${String(index + 1)}`;
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

/** A task as task_status, generate and resume answer it (`keys`: the server's, imageRefOf). */
export function taskFacts(record: TaskRecord, keys: SecretKeys) {
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
      ref: imageRefOf(record, index, keys),
      ...imageFacts(image),
    })),
  };
}
