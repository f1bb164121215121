/**
 * The addresses a demo task's service gave (fal's `status_url`, Replicate's `urls.get`, BFL's
 * `polling_url`: the record's `handles`), moved onto the demo running now. The built-in demo
 * starts on a new loopback port each time (the app at every launch, the CLI for each command),
 * so an address its dialect gave names a port that is no longer its: polled as it stands, it
 * would be refused as not the service's own. Only a demo endpoint's handles on a loopback host
 * are moved, path and query kept; the demo's key still goes to the demo's base URL only.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { EngineTaskRef } from './engine-types';
import { isDemoEndpoint, isLoopbackHost, type TaskHandles } from '../service';

/** `url` on `origin` when it is a loopback address, else as it was. */
function onOrigin(url: string, origin: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (!isLoopbackHost(parsed.hostname)) return url;
  return `${origin}${parsed.pathname}${parsed.search}`;
}

/** The handles to use for `record` on its service at `baseUrl` (see the file comment). */
export function handlesAt(
  record: Pick<TaskRecord, 'endpoint' | 'handles'>,
  baseUrl: string,
): TaskHandles | undefined {
  const { handles } = record;
  if (handles === undefined || !isDemoEndpoint(record.endpoint) || !URL.canParse(baseUrl)) {
    return handles;
  }
  const origin = new URL(baseUrl).origin;
  const moved: Record<string, string> = {};
  for (const [name, url] of Object.entries(handles)) {
    if (typeof url === 'string') moved[name] = onOrigin(url, origin);
  }
  return moved as TaskHandles;
}

/** The task on its service as the client asks about it: its id, its addresses at `baseUrl`, what was asked. */
export function serviceRefOf(record: TaskRecord, baseUrl: string): EngineTaskRef {
  return {
    taskId: record.taskId ?? '',
    handles: handlesAt(record, baseUrl),
    request: record.request,
  };
}
