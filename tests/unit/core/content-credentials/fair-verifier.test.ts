/**
 * Stores verified fairly (fair-verifier.ts) over a scripted verifier, on the manual clock: stores
 * take turns by service, so a service whose stores never finish holds up only its own; a store
 * is cut at its limit (the verifier's work aborted) and its task's other stores are then
 * `unreadable` without running; a task's stores share one budget; a store past the pre-count's
 * limits never waits or runs; an abort and a stop end what they should.
 */
import { describe, expect, it } from 'vitest';
import {
  FairVerifier,
  STORE_VERIFY_LIMIT_MS,
  TASK_VERIFY_BUDGET_MS,
} from '../../../../electron/core/content-credentials/fair-verifier';
import { VerifierUnavailableError } from '../../../../electron/core/content-credentials/c2pa-verifier';
import type {
  ContentCredentialVerifier,
  CredentialOwner,
  CredentialRequest,
  CredentialVerdict,
} from '../../../../electron/ports/content-credential-verifier';
import { ManualClock, flushPromises } from '../../../fakes/manual-clock';
import { crowdedImage } from '../../../support/c2pa-crowded';
import { c2paFixture } from '../../../support/c2pa-hostile';
import { SIGNED_VERDICT } from '../../../support/c2pa-hostile-cases';

const UNREADABLE = { state: 'unreadable' };

interface Call {
  readonly request: CredentialRequest;
  readonly answer: (verdict: CredentialVerdict) => void;
  readonly aborted: () => boolean;
}

/** A verifier whose every file waits until the test answers it (or its signal aborts it). */
class ScriptedVerifier implements ContentCredentialVerifier {
  readonly calls: Call[] = [];
  disposed = false;

  verify(request: CredentialRequest): Promise<CredentialVerdict> {
    return new Promise((resolve, reject) => {
      request.signal?.addEventListener('abort', () => reject(new Error('aborted')), {
        once: true,
      });
      this.calls.push({
        request,
        answer: resolve,
        aborted: () => request.signal?.aborted ?? false,
      });
    });
  }

  of(service: string): Call[] {
    return this.calls.filter((call) => call.request.owner?.service === service);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    return Promise.resolve();
  }
}

const HOSTILE = 'https://hostile.example';
const HONEST = 'https://honest.example';
const bytes = c2paFixture('signed.png');

function setup(parallel = 2) {
  const clock = new ManualClock();
  const inner = new ScriptedVerifier();
  const fair = new FairVerifier(inner, { clock, parallel });
  const verify = (owner: CredentialOwner, signal?: AbortSignal) => {
    const verdict = fair.verify({ bytes, format: 'png', owner, ...(signal ? { signal } : {}) });
    verdict.catch(() => undefined);
    return verdict;
  };
  return { clock, inner, fair, verify };
}

/** Settles `promise` now (after pending callbacks), or says it has not. */
async function settledNow<T>(promise: Promise<T>): Promise<T | 'pending'> {
  await flushPromises();
  return Promise.race([promise, Promise.resolve('pending' as const)]);
}

describe('fair verification', () => {
  it('verifies an honest service’s store while a hostile service’s stores never finish', async () => {
    const { clock, inner, verify } = setup();
    const hostile = Array.from({ length: 16 }, (_, image) =>
      verify({ service: HOSTILE, task: `h${image % 4}` }),
    );
    const honest = verify({ service: HONEST, task: 'honest' });
    await flushPromises();
    expect(inner.of(HONEST)).toHaveLength(1);
    inner.of(HONEST)[0]!.answer(SIGNED_VERDICT);
    // The clock has not moved: the honest store waited for nothing of the hostile service's.
    await expect(settledNow(honest)).resolves.toEqual(SIGNED_VERDICT);
    expect(clock.now()).toBe(new ManualClock().now());
    // One hostile store at a time, and the other 15 still waiting their turn.
    expect(inner.of(HOSTILE)).toHaveLength(1);
    await expect(settledNow(hostile[1]!)).resolves.toBe('pending');
  });

  it('cuts a store at its limit, aborting the work, and answers its task’s other stores without running them', async () => {
    const { clock, inner, verify } = setup();
    const task = Array.from({ length: 4 }, () => verify({ service: HOSTILE, task: 'one' }));
    const other = verify({ service: HOSTILE, task: 'two' });
    await flushPromises();
    const first = inner.of(HOSTILE)[0]!;
    await clock.advance(STORE_VERIFY_LIMIT_MS - 1);
    await expect(settledNow(task[0]!)).resolves.toBe('pending');
    await clock.advance(1);
    expect(first.aborted()).toBe(true);
    for (const verdict of task) await expect(verdict).resolves.toEqual(UNREADABLE);
    // The task's three other stores never reached the verifier; the next task's store did.
    await flushPromises();
    expect(inner.of(HOSTILE).map((call) => call.request.owner?.task)).toEqual(['one', 'two']);
    inner.of(HOSTILE)[1]!.answer(SIGNED_VERDICT);
    await expect(other).resolves.toEqual(SIGNED_VERDICT);
  });

  it('shares one budget between a task’s stores, and cuts the last at what is left', async () => {
    const { clock, inner, verify } = setup();
    const spent = 12_000;
    const stores = Array.from({ length: 4 }, () => verify({ service: HOSTILE, task: 'slow' }));
    for (const index of [0, 1]) {
      await flushPromises();
      await clock.advance(spent);
      inner.of(HOSTILE)[index]!.answer(SIGNED_VERDICT);
      await expect(stores[index]!).resolves.toEqual(SIGNED_VERDICT);
    }
    await flushPromises();
    const left = TASK_VERIFY_BUDGET_MS - 2 * spent;
    await clock.advance(left - 1);
    await expect(settledNow(stores[2]!)).resolves.toBe('pending');
    await clock.advance(1);
    await expect(stores[2]!).resolves.toEqual(UNREADABLE);
    await expect(stores[3]!).resolves.toEqual(UNREADABLE);
    expect(inner.of(HOSTILE)).toHaveLength(3);
  });

  it('counts what a store took, not how far the wall clock was set meanwhile (NTP, the user)', async () => {
    const { clock, inner, verify } = setup();
    const stores = Array.from({ length: 2 }, () => verify({ service: HONEST, task: 'set' }));
    await flushPromises();
    clock.setWall(TASK_VERIFY_BUDGET_MS * 2);
    await clock.advance(1_000);
    inner.of(HONEST)[0]!.answer(SIGNED_VERDICT);
    await expect(stores[0]!).resolves.toEqual(SIGNED_VERDICT);
    // One second of the budget spent: the task's next store is verified, not `unreadable`.
    await flushPromises();
    expect(inner.of(HONEST)).toHaveLength(2);
    inner.of(HONEST)[1]!.answer(SIGNED_VERDICT);
    await expect(stores[1]!).resolves.toEqual(SIGNED_VERDICT);
  });

  it('takes turns between services, one store of each at a time, in the order they came', async () => {
    const { inner, verify } = setup(1);
    const a = [1, 2, 3].map((n) => verify({ service: 'a', task: `a${n}` }));
    const b = verify({ service: 'b', task: 'b1' });
    const order: string[] = [];
    for (let step = 0; step < 4; step += 1) {
      await flushPromises();
      const call = inner.calls[step]!;
      order.push(call.request.owner!.task);
      call.answer(SIGNED_VERDICT);
    }
    await Promise.all([...a, b]);
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('refuses a store past the pre-count’s limits at once, without the verifier', async () => {
    const { inner, fair } = setup();
    const crowded = crowdedImage('png', 8_000);
    const verdict = fair.verify({
      bytes: crowded,
      format: 'png',
      owner: { service: HOSTILE, task: 't' },
    });
    await expect(settledNow(verdict)).resolves.toEqual(UNREADABLE);
    expect(inner.calls).toHaveLength(0);
  });

  it('gives an image of no task a budget of its own', async () => {
    const { clock, inner, fair } = setup();
    const first = fair.verify({ bytes, format: 'png' });
    await flushPromises();
    await clock.advance(STORE_VERIFY_LIMIT_MS);
    await expect(first).resolves.toEqual(UNREADABLE);
    const second = fair.verify({ bytes, format: 'png' });
    await flushPromises();
    inner.calls[1]!.answer(SIGNED_VERDICT);
    await expect(second).resolves.toEqual(SIGNED_VERDICT);
  });

  it('takes a store out of its line when its signal aborts, and aborts a running one', async () => {
    const { inner, verify } = setup();
    const running = new AbortController();
    const waiting = new AbortController();
    const first = verify({ service: HOSTILE, task: 't' }, running.signal);
    const second = verify({ service: HOSTILE, task: 't' }, waiting.signal);
    await flushPromises();
    waiting.abort(new Error('stopped'));
    await expect(second).rejects.toThrow('stopped');
    running.abort(new Error('stopped'));
    await expect(first).rejects.toThrow();
    expect(inner.calls[0]!.aborted()).toBe(true);
    expect(inner.calls).toHaveLength(1);
  });

  it('stops: waiting stores reject as the verifier stopped, an owned verifier is ended', async () => {
    const clock = new ManualClock();
    const inner = new ScriptedVerifier();
    const fair = new FairVerifier(inner, { clock, parallel: 1, ownsInner: true });
    const owner = { service: HOSTILE, task: 't' };
    void fair.verify({ bytes, format: 'png', owner }).catch(() => undefined);
    const waiting = fair.verify({ bytes, format: 'png', owner });
    await flushPromises();
    await fair.dispose();
    await expect(waiting).rejects.toBeInstanceOf(VerifierUnavailableError);
    await expect(fair.verify({ bytes, format: 'png', owner })).rejects.toBeInstanceOf(
      VerifierUnavailableError,
    );
    expect(inner.disposed).toBe(true);
  });
});
