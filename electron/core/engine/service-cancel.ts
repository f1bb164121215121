/**
 * "Cancel on the service": the user's explicit request that the service stop a running task.
 * Never automatic (a watch timeout, a quit or a removal never cancels), only where the provider
 * can cancel, and the record keeps when the user asked. The task is then polled at once: the
 * service's answer says whether it was canceled, or finished first.
 */
import { PROVIDERS, providerOf } from '../../../shared/domain/providers';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import type { CredentialsProvider } from '../../ports/credentials';
import { serviceLabel } from '../credentials/key-binding';
import { credentialsForRecord } from '../credentials/record-credentials';
import type { EngineContext } from './engine-context';
import { EngineInputError, type EngineServiceClient } from './engine-types';

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
   *   a ServiceError when the service refused.
   */
  async cancel(record: TaskRecord): Promise<TaskRecord> {
    const facts = PROVIDERS[providerOf(record)];
    if (!facts.canCancel || !this.client.cancel) {
      // Today's contract has no name of its own: its address names it, in every language.
      const service = facts.id === 'pictor' ? serviceLabel(record.endpoint) : facts.label;
      throw new EngineInputError(sentence('error.service.noCancel', { service }));
    }
    if (record.status !== 'processing' || record.taskId === null) {
      throw new EngineInputError(sentence('error.service.cancelNotNow'));
    }
    const found = await credentialsForRecord(this.credentials, record);
    if (!found.ok) {
      throw new EngineInputError(found.error.sentence ?? sentence('error.library.noKey'));
    }
    const { taskId, handles, request } = record;
    await this.client.cancel(found.credentials, { taskId, handles, request }, this.ctx.signal);
    const current = this.ctx.get(record.localId) ?? record;
    const marked = this.ctx.commit({ ...current, canceledByUserAt: this.ctx.clock.now() });
    this.ctx.logger.info('task canceled by the user', { localId: record.localId, taskId });
    if (marked.status === 'processing') this.pollNow({ ...marked, hold: null });
    return marked;
  }
}
