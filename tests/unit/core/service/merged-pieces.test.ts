/**
 * A body's pieces merged before they are handed on (merged-pieces.ts): what arrives in one turn
 * goes on together, in order, and nothing that has arrived waits past its turn; a large piece, or a
 * body of one piece, goes on as it came, never copied.
 */
import { setImmediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import { MergedPieces } from '../../../../electron/core/service/merged-pieces';

/** merged-pieces.ts's sizes: the most held, and the size of a piece that goes on as it came. */
const MERGED_BYTES = 64 * 1024;
const MERGED_BELOW = 16 * 1024;

/** The turn after this one: what was held in this one has gone on by then. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function taker(refuseAfter = Infinity) {
  const taken: Uint8Array[] = [];
  let refusals = 0;
  const pieces = new MergedPieces(
    (piece) => {
      taken.push(piece);
      return taken.length < refuseAfter;
    },
    () => (refusals += 1),
  );
  return { pieces, taken, refusals: () => refusals };
}

const bytesOf = (pieces: readonly Uint8Array[]) => Buffer.concat(pieces).toString('latin1');
const text = (value: string) => new TextEncoder().encode(value);

describe('pieces merged', () => {
  it('that arrive in one turn go on as one piece at the turn’s end, in order', async () => {
    const { pieces, taken } = taker();
    const body = 'data: {"status":"COMPLETED"}\n\n';
    for (const byte of text(body)) expect(pieces.add(Uint8Array.of(byte))).toBe(true);
    expect(taken).toEqual([]);
    await nextTurn();
    expect(taken).toHaveLength(1);
    expect(bytesOf(taken)).toBe(body);
    // Over a buffer of its own, ready to be moved to another thread.
    expect(taken[0]!.byteLength).toBe(taken[0]!.buffer.byteLength);
  });

  it('that arrive in turns go on at the end of each turn, never later', async () => {
    const { pieces, taken } = taker();
    for (const [turn, part] of ['ab', 'cde', 'f'].entries()) {
      for (const byte of text(part)) pieces.add(Uint8Array.of(byte));
      await nextTurn();
      expect(taken).toHaveLength(turn + 1);
    }
    expect(taken.map((piece) => Buffer.from(piece).toString())).toEqual(['ab', 'cde', 'f']);
  });

  it('go on at once when the body ends', () => {
    const { pieces, taken } = taker();
    pieces.add(text('{"a":'));
    pieces.add(text('1}'));
    expect(pieces.flush()).toBe(true);
    expect(bytesOf(taken)).toBe('{"a":1}');
  });

  it(`go on at once when ${MERGED_BYTES} bytes are held, without waiting for the turn`, () => {
    const { pieces, taken } = taker();
    const piece = new Uint8Array(MERGED_BELOW - 1).fill(0x61);
    while (taken.length === 0) pieces.add(piece);
    expect(taken[0]!.byteLength).toBeLessThanOrEqual(MERGED_BYTES);
    expect(taken[0]!.byteLength).toBeGreaterThan(MERGED_BYTES - MERGED_BELOW);
  });

  it('a large piece goes on as it came, after what was held before it', () => {
    const { pieces, taken } = taker();
    const large = new Uint8Array(MERGED_BELOW).fill(0x62);
    pieces.add(text('a'));
    pieces.add(text('b'));
    pieces.add(large);
    expect(taken).toHaveLength(2);
    expect(bytesOf([taken[0]!])).toBe('ab');
    expect(taken[1]).toBe(large);
  });

  it('a body of one small piece goes on as it came, not copied', async () => {
    const { pieces, taken } = taker();
    const only = text('{"status":"processing"}');
    pieces.add(only);
    await nextTurn();
    expect(taken).toEqual([only]);
    expect(taken[0]).toBe(only);
  });

  it('empty pieces hand on nothing', async () => {
    const { pieces, taken } = taker();
    pieces.add(new Uint8Array());
    expect(pieces.flush()).toBe(true);
    await nextTurn();
    expect(taken).toEqual([]);
  });
});

describe('a taker that wants no more', () => {
  it('at the end of a turn is told about, and nothing more is taken', async () => {
    const { pieces, taken, refusals } = taker(1);
    pieces.add(text('x'));
    pieces.add(text('y'));
    await nextTurn();
    expect(refusals()).toBe(1);
    expect(pieces.refused).toBe(true);
    expect(pieces.add(text('z'))).toBe(false);
    expect(pieces.flush()).toBe(false);
    await nextTurn();
    expect(taken).toHaveLength(1);
  });

  it('when handed a piece directly makes `add` answer false', () => {
    const { pieces, refusals } = taker(1);
    expect(pieces.add(new Uint8Array(MERGED_BELOW))).toBe(false);
    expect(pieces.refused).toBe(true);
    // The caller that handed it stops reading itself: no second notice.
    expect(refusals()).toBe(0);
  });
});

it('what is dropped never goes on', async () => {
  const { pieces, taken } = taker();
  pieces.add(text('held'));
  pieces.drop();
  await nextTurn();
  expect(pieces.flush()).toBe(true);
  expect(taken).toEqual([]);
});
