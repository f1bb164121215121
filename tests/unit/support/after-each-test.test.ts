import { afterEach, describe, expect, it } from 'vitest';
import { afterEachTest, endTest } from '../../support/after-each-test';

describe('endTest', () => {
  const offs: Array<() => void> = [];
  afterEach(() => {
    for (const off of offs.splice(0)) off();
  });

  it('runs every clean-up, the last registered first, when one of them throws', async () => {
    const ran: string[] = [];
    const failure = new Error('the server would not stop');
    offs.push(afterEachTest(() => ran.push('first')));
    offs.push(
      afterEachTest(() => {
        ran.push('second');
        throw failure;
      }),
    );
    offs.push(afterEachTest(async () => ran.push('third')));
    await expect(endTest()).rejects.toBe(failure);
    expect(ran).toEqual(['third', 'second', 'first']);
  });

  it('throws every failure together when more than one clean-up fails', async () => {
    offs.push(afterEachTest(() => Promise.reject(new Error('a'))));
    offs.push(
      afterEachTest(() => {
        throw new Error('b');
      }),
    );
    const thrown = await endTest().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(AggregateError);
    expect((thrown as AggregateError).errors.map((e) => (e as Error).message)).toEqual(['b', 'a']);
  });

  it('runs a clean-up no more once it is taken off', async () => {
    let runs = 0;
    const off = afterEachTest(() => {
      runs += 1;
    });
    await endTest();
    off();
    await endTest();
    expect(runs).toBe(1);
  });
});
