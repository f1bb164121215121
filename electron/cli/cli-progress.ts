/**
 * Progress on stderr: a line when a task's state (or its place in its service's queue) changes,
 * and a heartbeat while it processes.
 */
import { PROVIDERS, providerOf } from '../../shared/domain/providers';
import type { TaskUpdate } from '../core/engine';
import { cliWording } from './cli-report';
import { terminalSafe } from './terminal-text';

const HEARTBEAT_MS = 10_000;

/** A task's place in its service's queue, as the service last said (0: next). */
function queueText(ahead: number): string {
  return ahead === 0 ? 'next in queue' : `in queue, ${ahead} ahead`;
}

export class CliProgress {
  private readonly last = new Map<string, { signature: string; at: number }>();

  constructor(
    private readonly watched: ReadonlySet<string>,
    private readonly write: (line: string) => void,
    /** The core's clock: the heartbeat and the times shown are read from it. */
    private readonly now: () => number,
  ) {}

  readonly onUpdate = ({ record, live }: TaskUpdate): void => {
    if (!this.watched.has(record.localId)) return;
    const saved = record.images.filter((image) => image.state === 'saved').length;
    const signature = [
      record.status,
      record.hold,
      record.error?.message,
      saved,
      record.taskId,
      // A move in the service's queue is news: said when it happens, not at the next heartbeat.
      live.queuePosition,
      live.runningAtLimit,
    ].join('|');
    const previous = this.last.get(record.localId);
    const now = this.now();
    if (previous && previous.signature === signature && now - previous.at < HEARTBEAT_MS) return;
    this.last.set(record.localId, { signature, at: now });
    const elapsed = Math.round((now - (record.submittedAt ?? record.createdAt)) / 1_000);
    const parts = [
      `[${record.taskId ?? record.localId.slice(0, 8)}]`,
      record.hold ? `${record.status} (${record.hold})` : record.status,
      `${elapsed}s`,
    ];
    if (record.status === 'processing') parts.push(`polls ${record.polls}`);
    if (record.status === 'processing' && live.queuePosition !== undefined) {
      parts.push(queueText(live.queuePosition));
    }
    if (live.nextPollAt !== null && record.status === 'processing') {
      parts.push(`next check in ${Math.max(0, Math.round((live.nextPollAt - now) / 1_000))}s`);
    }
    if (record.status === 'submitting' && live.runningAtLimit !== undefined) {
      const service = PROVIDERS[providerOf(record)].label;
      parts.push(`waiting: ${live.runningAtLimit} tasks already running on ${service}`);
    }
    if (record.images.length > 0) parts.push(`images ${saved}/${record.images.length}`);
    // A task that ended with an error gets its own line when the command ends (problemLine):
    // saying it here too printed every refusal twice.
    if (record.error && (record.status === 'submitting' || record.status === 'processing')) {
      parts.push(`— ${cliWording(record.error.message)}`);
    }
    this.write(`${terminalSafe(parts.join(' '))}\n`);
  };
}
