import type { GenerationRequest, ServiceTask } from '../../shared/service/wire';
import type { ServiceCredentials } from '../../electron/ports/credentials';
import type { Clock } from '../../electron/ports/clock';
import type { EngineServiceClient, EngineTaskRef } from '../../electron/core/engine/engine-types';
import { ServiceError } from '../../electron/core/service/service-error';

interface FakeTask {
  id: string;
  key: string;
  request: GenerationRequest;
  completesAt: number;
  outcome: ServiceTask;
}

type Step = ServiceError | Error | (() => Promise<never>);

/** Builds a ServiceError as the real client would throw it. */
export function serviceError(
  kind: ServiceError['kind'],
  extra: { httpStatus?: number; retryAfterMs?: number; mayHaveReachedService?: boolean } = {},
): ServiceError {
  return new ServiceError({
    kind,
    message: `fake ${kind}`,
    mayHaveReachedService: false,
    ...extra,
  });
}

/**
 * A poll step that answers only when released: then with a timeout that may have reached the
 * service. For work under way at a chosen moment (one poll in flight, a pause waiting for it).
 */
export function heldPoll(): { step: () => Promise<never>; release: () => void } {
  const held = { release: (): void => undefined };
  const step = () =>
    new Promise<never>((_, reject) => {
      held.release = () => reject(serviceError('timeout', { mayHaveReachedService: true }));
    });
  return { step, release: () => held.release() };
}

/**
 * A service in memory, driven by the test's clock: tasks process for `durationMs`, then complete
 * (or follow `outcomeFor`). Scripted steps make the next submits or polls fail on purpose.
 * Accounts are keys' account names from `accounts` (key → account).
 */
export class ScriptedServiceClient implements EngineServiceClient {
  readonly tasks = new Map<string, FakeTask>();
  readonly submits: { at: number; key: string; prompt: string }[] = [];
  readonly polls: { at: number; id: string; key: string }[] = [];
  submitSteps: Step[] = [];
  pollSteps: Step[] = [];
  durationMs = 10_000;
  outcomeFor: (request: GenerationRequest, id: string) => ServiceTask = (_request, id) => ({
    status: 'completed',
    imageUrls: [`https://cdn.example.com/${id}.png`],
  });
  private nextId = 1;
  inFlightPolls = 0;
  maxInFlightPolls = 0;

  constructor(
    private readonly clock: Clock,
    private readonly accounts: Record<string, string> = {},
  ) {}

  async submit(
    credentials: ServiceCredentials,
    request: GenerationRequest,
  ): Promise<{ id: string }> {
    this.submits.push({ at: this.clock.now(), key: credentials.key, prompt: request.prompt });
    await this.runStep(this.submitSteps.shift());
    const id = `task-${this.nextId++}`;
    this.tasks.set(id, {
      id,
      key: credentials.key,
      request,
      completesAt: this.clock.now() + this.durationMs,
      outcome: this.outcomeFor(request, id),
    });
    return { id };
  }

  async getTask(
    credentials: ServiceCredentials,
    task: string | EngineTaskRef,
  ): Promise<ServiceTask> {
    const taskId = typeof task === 'string' ? task : task.taskId;
    this.polls.push({ at: this.clock.now(), id: taskId, key: credentials.key });
    this.inFlightPolls += 1;
    this.maxInFlightPolls = Math.max(this.maxInFlightPolls, this.inFlightPolls);
    try {
      await this.runStep(this.pollSteps.shift());
      const known = this.tasks.get(taskId);
      if (!known || this.accountOf(known.key) !== this.accountOf(credentials.key))
        throw serviceError('not_found', { httpStatus: 404 });
      return this.clock.now() >= known.completesAt ? known.outcome : { status: 'processing' };
    } finally {
      this.inFlightPolls -= 1;
    }
  }

  /** Adds a task as if created by another client. */
  createTask(key: string, prompt: string, durationMs = this.durationMs): string {
    const id = `outside-${this.nextId++}`;
    const request = { prompt };
    this.tasks.set(id, {
      id,
      key,
      request,
      completesAt: this.clock.now() + durationMs,
      outcome: this.outcomeFor(request, id),
    });
    return id;
  }

  pollsOf(id: string): number[] {
    return this.polls.filter((poll) => poll.id === id).map((poll) => poll.at);
  }

  private accountOf(key: string): string {
    return this.accounts[key] ?? key;
  }

  private async runStep(step: Step | undefined): Promise<void> {
    if (!step) return;
    if (typeof step === 'function') await step();
    else throw step;
  }
}
