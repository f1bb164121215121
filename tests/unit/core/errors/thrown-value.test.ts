import { describe, expect, it } from 'vitest';
import {
  codeOrMessage,
  describeThrown,
  messageOf,
  systemErrorCode,
} from '../../../../electron/core/errors/thrown-value';

function systemError(code: unknown, message = 'open failed'): Error {
  return Object.assign(new Error(message), { code });
}

describe('words for a thrown value', () => {
  it.each<[string, unknown, string, string]>([
    ['an Error', new RangeError('too big'), 'too big', 'RangeError: too big'],
    ['a string', 'plain', 'plain', 'plain'],
    ['undefined', undefined, 'undefined', 'undefined'],
    ['an object', { code: 'ENOENT' }, '[object Object]', '[object Object]'],
  ])('%s', (_what, thrown, message, described) => {
    expect(messageOf(thrown)).toBe(message);
    expect(describeThrown(thrown)).toBe(described);
  });

  it('reads a system error code only when it is a string', () => {
    expect(systemErrorCode(systemError('ENOSPC'))).toBe('ENOSPC');
    expect(systemErrorCode({ code: 'EACCES' })).toBe('EACCES');
    expect(systemErrorCode(systemError(-2))).toBeUndefined();
    expect(systemErrorCode(new Error('no code'))).toBeUndefined();
    expect(systemErrorCode(null)).toBeUndefined();
    expect(systemErrorCode('ENOENT')).toBeUndefined();
  });

  it('prefers the code to the message for a short reason', () => {
    expect(codeOrMessage(systemError('ENOSPC', 'no space left on device'))).toBe('ENOSPC');
    expect(codeOrMessage(new Error('bad bytes'))).toBe('bad bytes');
    expect(codeOrMessage(42)).toBe('42');
  });
});
