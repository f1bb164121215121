/**
 * "Cancel on the service": the user's explicit request that the service stop a running task.
 * Never automatic (a watch timeout, a quit or a removal never cancels), only where the provider
 * can cancel, and the record keeps when the user asked. The task is then polled at once, whatever
 * the service answered: its next answer says whether it was canceled, or finished first (a
 * refusal is often "already done", and the results are then fetched without waiting).
 */
import { PROVIDERS, providerOf } from '../../../shared/domain/providers';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import type { CredentialsProvider } from '../../ports/credentials';
import { ServiceError, serviceNameAt } from '../service';
import { credentialsForRecord } from '../credentials';
import type { EngineContext } from './engine-context';
import { EngineInputError, type EngineServiceClient } from './engine-types';
import { handlesAt } from './demo-handles';

export class ServiceCancel {
  constructor(
    private readonly ctx: EngineContext,
    private readonly client: EngineServiceClient,
    private readonly credentials: CredentialsProvider,
    /** Polls the task again now. */
    private readonly pollNow: (record: TaskRecord) => void,
  ) {}

  /**
   * Asks the service to cancel the task; resolves with the record marked canceled by the user.
   * @throws EngineInputError when it cannot be asked (not running, no cancel, no key for it);
   *   a ServiceError when the service refused (or could not be reached).
   */
  async cancel(record: TaskRecord): Promise<TaskRecord> {
    const facts = PROVIDERS[providerOf(record)];
    if (!facts.canCancel || !this.client.cancel) {
      const service = serviceNameAt(facts, record.endpoint);
      throw new EngineInputError(sentence('error.service.noCancel', { service }));
    }
    if (record.status !== 'processing' || record.taskId === null) {
      throw new EngineInputError(sentence('error.service.cancelNotNow'));
    }
    const found = await credentialsForRecord(this.credentials, record);
    // The host's own words when it has no sentence (the CLI says which key it holds, and where).
    if (!found.ok) throw new EngineInputError(found.error.sentence ?? found.error.message);
    const { taskId, request } = record;
    const handles = handlesAt(record, found.credentials.baseUrl);
    try {
      await this.client.cancel(found.credentials, { taskId, handles, request }, this.ctx.signal);
    } catch (error) {
      if (error instanceof ServiceError) this.watchAgain(this.ctx.get(record.localId) ?? record);
      throw error;
    }
    const current = this.ctx.get(record.localId) ?? record;
    const marked = this.ctx.commit({ ...current, canceledByUserAt: this.ctx.clock.now() });
    this.ctx.logger.info('task canceled by the user', { localId: record.localId, taskId });
    this.watchAgain(marked);
    return marked;
  }

  /**
   * Polls a still processing task now. A held one (the watch timed out) starts a new watch, as
   * Resume does: its old watch would end it again before the service is asked.
   */
  private watchAgain(record: TaskRecord): void {
    if (record.status !== 'processing') return;
    const watch = record.hold === null ? {} : { watchStartedAt: this.ctx.clock.now() };
    this.pollNow({ ...record, hold: null, ...watch });
  }
}
