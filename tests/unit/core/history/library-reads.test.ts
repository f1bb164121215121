/**
 * The gallery's whole-library reads asked again while the library is unchanged: the second ask
 * joins the first instead of queueing in the worker behind what came since (library-reads.ts). The
 * worker is a recording port; the library's version is what main's connection would read.
 */
import { describe, expect, it } from 'vitest';
import { libraryReadsIn } from '../../../../electron/core/history/library-reads';
import { PositionAnchors } from '../../../../electron/core/history/position-anchors';

interface Ask {
  readonly op: string;
  readonly args: unknown;
  answer(value: unknown): void;
  fail(error: Error): void;
}

function recordingWorker() {
  const asks: Ask[] = [];
  const port = {
    call: (op: string, args: unknown) =>
      new Promise((answer, fail) => asks.push({ op, args, answer, fail })),
  } as never;
  return { asks, port };
}

function library() {
  const version = { others: 1, own: 0 };
  const anchors = new PositionAnchors((sql) =>
    sql.includes('data_version') ? version.others : version.own,
  );
  const worker = recordingWorker();
  return { version, worker, reads: libraryReadsIn(worker.port, anchors) };
}

describe('the gallery’s counts and models while the library is unchanged', () => {
  it('answers a count asked again from the first ask, in flight or answered', async () => {
    const { worker, reads } = library();
    const first = reads.count({ states: ['saved'] });
    const again = reads.count({ states: ['saved'] });
    expect(worker.asks.map((ask) => ask.op)).toEqual(['imageCount']);
    worker.asks[0]?.answer(2_500_000);
    expect(await Promise.all([first, again])).toEqual([2_500_000, 2_500_000]);
    expect(await reads.count({ states: ['saved'] })).toBe(2_500_000);
    expect(worker.asks).toHaveLength(1);
  });

  it('asks the worker again for another filter, and after any change by anyone', async () => {
    const { version, worker, reads } = library();
    void reads.count({ states: ['saved'] });
    void reads.count({ states: ['saved'], model: 'sketch' });
    void reads.models();
    expect(worker.asks.map((ask) => ask.op)).toEqual(['imageCount', 'imageCount', 'imageModels']);
    version.others += 1; // another connection committed (the worker, the CLI)
    void reads.count({ states: ['saved'] });
    version.own += 1; // this connection wrote
    void reads.count({ states: ['saved'] });
    void reads.models();
    expect(worker.asks.map((ask) => ask.op)).toEqual([
      'imageCount',
      'imageCount',
      'imageModels',
      'imageCount',
      'imageCount',
      'imageModels',
    ]);
  });

  it('keeps no failed answer: the next ask reads again', async () => {
    const { worker, reads } = library();
    const first = reads.models();
    worker.asks[0]?.fail(new Error('the worker ended'));
    await expect(first).rejects.toThrow('the worker ended');
    const again = reads.models();
    expect(worker.asks).toHaveLength(2);
    worker.asks[1]?.answer(['sketch-image-1']);
    expect(await again).toEqual(['sketch-image-1']);
  });

  it('keeps a bounded number of answers between two changes', () => {
    const { worker, reads } = library();
    const ask = (n: number) => void reads.count({ states: ['saved'], model: `m${n}` });
    for (let round = 0; round < 5; round += 1) for (let n = 0; n < 20; n += 1) ask(n);
    expect(worker.asks).toHaveLength(20);
    // 40 filters asked in turn, twice: more than are kept, so the second round asks again.
    for (let round = 0; round < 2; round += 1) for (let n = 100; n < 140; n += 1) ask(n);
    expect(worker.asks.length).toBeGreaterThan(20 + 40);
  });
});
