import { describe, expect, it } from 'vitest';
import {
  quotedOr,
  quotedWord,
  shownPath,
  unknownCommandMessage,
} from '../../../../electron/core/command-line/user-words';

const KEYS = [
  'sk-proj-A1b2C3d4E5f6G7h8I9j0',
  'sk-short',
  'r8_abc',
  Buffer.from('some long secret token text').toString('base64'),
  'f3a9c07b5d2e4a6b8c0d1e2f3a4b5c6d',
  '0b7c2a4e-1f3d-4a5b-9c8d-7e6f5a4b3c2d',
];

describe('a typed word in a message', () => {
  it('is quoted when short and not like a key', () => {
    expect(quotedWord('genrate')).toBe('"genrate"');
    expect(quotedWord('7')).toBe('"7"');
    expect(quotedOr('Nope', 'by the name given', 'named ')).toBe('named "Nope"');
  });

  it('is never repeated when it could be a key, or holds control characters', () => {
    for (const key of [...KEYS, 'a\u001b[31mred', 'x'.repeat(25)]) {
      expect(quotedWord(key), key).toBe('the value given');
      expect(unknownCommandMessage(key, ['generate'])).not.toContain(key);
    }
  });

  it('names a near miss of a command', () => {
    expect(unknownCommandMessage('genrate', ['generate', 'list'])).toBe(
      'Unknown command "genrate". Did you mean generate? Commands: generate, list.',
    );
  });

  it('shows a path unless a part of it could be a key', () => {
    expect(shownPath('/tmp/out/library.zip')).toBe('/tmp/out/library.zip');
    for (const key of KEYS) expect(shownPath(`/tmp/${key}`)).toBe('the path given');
  });
});
