import { describe, expect, it } from 'vitest';
import { parseTaskAnswer } from '../../../support/answer-parsers';

describe('a failed task whose message echoes the key', () => {
  it('is scrubbed as the server wrote it, before the JSON turns its escapes into characters', () => {
    // Found by the soak-size property run (seed 1914746443): a key holding a backslash, echoed
    // unescaped, so reading the JSON turns `\n` into a newline and the key no longer matches.
    const key = '!!!!!!!!!!!!!!!!\\n!';
    const text = `{"status":"failed","id":"t","error":{"message":"${key}"}}`;
    const task = parseTaskAnswer(text, key);
    expect(task).toEqual({ status: 'failed', message: '[redacted]' });
  });

  it('is withheld whole when the scrubbed body no longer reads', () => {
    const key = 'sk-with"quote';
    const text = `{"status":"failed","id":"t","error":{"message":"bad key ${key.replace('"', '\\"')}"}}`;
    const task = parseTaskAnswer(text, key);
    expect(JSON.stringify(task)).not.toContain('sk-with');
    expect(task.status).toBe('failed');
  });

  it('keeps an ordinary failure message as it is', () => {
    const text = '{"status":"failed","id":"t","error":{"message":"Content policy violation"}}';
    expect(parseTaskAnswer(text, 'sk-live-123456')).toEqual({
      status: 'failed',
      message: 'Content policy violation',
    });
  });
});
