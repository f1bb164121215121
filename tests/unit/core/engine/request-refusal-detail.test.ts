/**
 * A request the engine refuses names where (the field's path) in its detail, and that path can
 * hold the request's own keys: an option's name from a template or a record another hand wrote.
 * A key of a megabyte, or one holding a bidi override or a terminal escape, is cleaned and
 * bounded as a crafted file's refusal is (shared/text/shown-name.ts's `shownIssue`), never copied
 * into the detail the window, the CLI and the log show.
 */
import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../../../electron/core/engine/request-check';
import { EngineInputError } from '../../../../electron/core/engine/engine-types';
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  anyOf,
} from '../../../../shared/text/control-characters';

function refusal(request: unknown): EngineInputError {
  try {
    parseRequest(request as never);
  } catch (error) {
    expect(error).toBeInstanceOf(EngineInputError);
    return error as EngineInputError;
  }
  throw new Error('the request was accepted');
}

const STEERING = anyOf([CONTROL_CHARACTERS, BIDI_CONTROLS]);

describe('a refused request’s detail', () => {
  it.each([
    ['an option named by a megabyte', 'x'.repeat(1_000_000)],
    ['an option named with a bidi override and an escape', 'k\u202e\u001b[31mred'],
    ['both', `k\u202e\u001b]52;c;${'y'.repeat(1_000_000)}`],
  ])('names %s cleaned and bounded', (_name, key) => {
    const error = refusal({ prompt: 'a lighthouse', params: { [key]: 1 } });
    expect(error.message).toBe('The request is not valid.');
    const detail = error.detail ?? '';
    expect(detail).toMatch(/^params\./);
    expect(detail.length).toBeLessThan(500);
    expect(detail).not.toMatch(STEERING);
  });

  it('still names a plain field as it is', () => {
    const error = refusal({ prompt: 'a lighthouse', params: { a: { b: 1 } } });
    expect(error.detail).toBe('params.a: Invalid input');
  });
});
