/**
 * The core's closing gate (electron/core/base/closing-gate.ts): a user's change is refused from
 * the close's first moment, a file write from the gate's close; what was let in before is waited
 * for, and nothing refused is run. Works here end when the test lets them, so each step is exact.
 */
import { describe, expect, it } from 'vitest';
import { ClosingGate } from '../../../../electron/core/base';
import { UserFacingError } from '../../../../electron/core/errors';

/** A piece of work the test ends; `started` says whether the gate ran it. */
function held() {
  let end = (): void => undefined;
  const work = {
    started: false,
    run: () => {
      work.started = true;
      return new Promise<string>((resolve) => (end = () => resolve('done')));
    },
    end: () => end(),
  };
  return work;
}

/** Whether `promise` has settled after the microtasks pending now have run. */
async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
  return settled;
}

async function refusal(promise: Promise<unknown>): Promise<UserFacingError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserFacingError);
  return error as UserFacingError;
}

describe('the closing gate', () => {
  it('refuses asks from the close’s first moment, and runs none of them', async () => {
    const gate = new ClosingGate();
    const asked = held();
    void gate.refuseAsks();
    const error = await refusal(gate.ask(asked.run));
    expect(asked.started).toBe(false);
    expect(error.sentence?.key).toBe('error.library.closing');
    expect(error.code).toBe('failed');
  });

  it('runs a change made at once until the close’s first moment, and none after', async () => {
    const gate = new ClosingGate();
    let runs = 0;
    expect(gate.askNow(() => (runs += 1))).toBe(1);
    void gate.refuseAsks();
    let thrown: unknown = null;
    try {
      gate.askNow(() => (runs += 1));
    } catch (error) {
      thrown = error;
    }
    expect(runs).toBe(1);
    expect(thrown).toBeInstanceOf(UserFacingError);
    expect((thrown as UserFacingError).sentence?.key).toBe('error.library.closing');
    // Writes are still let in: only a user's changes are refused from the first moment.
    expect(await gate.write(() => Promise.resolve('written'))).toBe('written');
  });

  it('aborts its closing signal at the close’s first moment, the refusal as its reason', async () => {
    const asked = new ClosingGate();
    expect(asked.closing.aborted).toBe(false);
    void asked.refuseAsks();
    expect(asked.closing.aborted).toBe(true);
    expect((asked.closing.reason as UserFacingError).sentence?.key).toBe('error.library.closing');
    // A gate closed at once (no refusal of asks before) aborts it too.
    const closed = new ClosingGate();
    await closed.close();
    expect(closed.closing.aborted).toBe(true);
  });

  it('waits for the asks let in before, not for the writes', async () => {
    const gate = new ClosingGate();
    const asked = held();
    const written = held();
    const answer = gate.ask(asked.run);
    void gate.write(written.run);
    const refused = gate.refuseAsks();
    expect(await hasSettled(refused)).toBe(false);
    asked.end();
    expect(await answer).toBe('done');
    expect(await hasSettled(refused)).toBe(true);
    written.end();
  });

  it('lets writes in while only asks are refused (the engine’s last writes at its stop)', async () => {
    const gate = new ClosingGate();
    await gate.refuseAsks();
    const written = held();
    const write = gate.write(written.run);
    expect(written.started).toBe(true);
    written.end();
    expect(await write).toBe('done');
  });

  it('closes once every write let in has ended, and refuses every write after', async () => {
    const gate = new ClosingGate();
    const first = held();
    const second = held();
    const writes = [gate.write(first.run), gate.write(second.run)];
    const closed = gate.close();
    const late = held();
    await refusal(gate.write(late.run));
    await refusal(gate.ask(late.run));
    expect(late.started).toBe(false);
    first.end();
    expect(await hasSettled(closed)).toBe(false);
    second.end();
    expect(await Promise.all(writes)).toEqual(['done', 'done']);
    expect(await hasSettled(closed)).toBe(true);
  });

  it('counts a write that failed as ended, and hands its failure to its caller', async () => {
    const gate = new ClosingGate();
    const failed = gate.write(() => Promise.reject(new Error('disk full')));
    const thrown = gate.write(() => {
      throw new Error('thrown before a promise');
    });
    await expect(failed).rejects.toThrow('disk full');
    await expect(thrown).rejects.toThrow('thrown before a promise');
    await gate.close();
  });
});
