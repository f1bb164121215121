import { describe, expect, it } from 'vitest';
import { formatLogLine, MAX_MESSAGE_CHARS } from '../../../../electron/core/logging/log-line';
import {
  isSecretFieldName,
  redactPatterns,
  secretRedactor,
} from '../../../../electron/core/logging/redaction';
import { createTaskEventLog } from '../../../../electron/core/logging/task-event-log';
import { makeImage, makeRecord, recordingLogger } from '../history/history-fixtures';

describe('redactPatterns', () => {
  it.each([
    ['Authorization: Bearer abc123', 'Authorization: [redacted]'],
    ['authorization=Basic dXNlcjpwYXNz', 'authorization=[redacted]'],
    ['{"Authorization":"Bearer abc"}', '{"Authorization":"[redacted]"}'],
    ['sent bearer abc.def_ghi-1 upstream', 'sent Bearer [redacted] upstream'],
    ['GET /img?api_key=abc&size=1', 'GET /img?api_key=[redacted]&size=1'],
    ['https://x.test/a?token=t0k3n', 'https://x.test/a?token=[redacted]'],
    ['key=abc', 'key=[redacted]'],
    ['the key sk-abcdefghijklmnop1234 leaked', 'the key [redacted] leaked'],
  ])('%s', (input, output) => {
    expect(redactPatterns(input)).toBe(output);
  });

  it('leaves ordinary text alone', () => {
    const text = 'Task completed after 3 polls (monkey=3, size=1024x1024, keyboard)';
    expect(redactPatterns(text)).toBe(text);
  });
});

describe('secretRedactor', () => {
  it('replaces the secret, its URL-encoded and its JSON-escaped forms', () => {
    const redact = secretRedactor(['a+b/c"d']);
    expect(redact('x a+b/c"d y')).toBe('x [redacted] y');
    expect(redact(`x ${encodeURIComponent('a+b/c"d')} y`)).toBe('x [redacted] y');
    const escaped = JSON.stringify('a+b/c"d').slice(1, -1);
    expect(escaped).toBe('a+b/c\\"d');
    expect(redact(`x ${escaped} y`)).toBe('x [redacted] y');
  });

  it('ignores empty secrets', () => {
    expect(secretRedactor([''])('unchanged')).toBe('unchanged');
  });
});

describe('isSecretFieldName', () => {
  it.each([
    'key',
    'apiKey',
    'API_KEY',
    'authorization',
    'accessToken',
    'secret',
    'passwd',
    'cookie',
  ])('%s is secret', (name) => expect(isSecretFieldName(name)).toBe(true));
  it.each(['localId', 'taskId', 'status', 'detail', 'error', 'endpoint'])('%s is not', (name) =>
    expect(isSecretFieldName(name)).toBe(false),
  );
});

describe('formatLogLine', () => {
  it('clips a runaway message', () => {
    const line = formatLogLine(0, 'info', 'x'.repeat(MAX_MESSAGE_CHARS + 500), undefined, null);
    const parsed = JSON.parse(line) as { message: string };
    expect(parsed.message).toMatch(/… \(500 more characters\)$/);
    expect(parsed.message.length).toBeLessThan(MAX_MESSAGE_CHARS + 40);
  });
});

describe('createTaskEventLog', () => {
  it('logs each change of status, hold or images once, without the prompt', () => {
    const logger = recordingLogger();
    const record = createTaskEventLog(logger);
    const processing = makeRecord({
      localId: 't1',
      status: 'processing',
      images: [],
      request: { prompt: 'my private prompt', model: 'm1' },
    });
    record(processing);
    record({ ...processing, polls: 4 });
    record({ ...processing, hold: 'timed_out' });
    const completed = {
      ...processing,
      status: 'completed' as const,
      images: [makeImage(0, { state: 'pending' }), makeImage(1, { state: 'pending' })],
    };
    record(completed);
    record({ ...completed, images: [makeImage(0), makeImage(1, { state: 'expired' })] });
    expect(logger.lines.map((line) => line.message)).toEqual([
      'Task processing',
      'Task processing (held: timed_out)',
      'Task completed',
      'Task completed',
    ]);
    expect(logger.lines[3]!.fields).toMatchObject({
      localId: 't1',
      taskId: 'task-t1',
      endpoint: 'https://images.example.test',
      images: 'saved=1 expired=1',
      model: 'm1',
    });
    expect(JSON.stringify(logger.lines)).not.toContain('my private prompt');
  });

  it('a failed task is a warning with its error', () => {
    const logger = recordingLogger();
    createTaskEventLog(logger)(
      makeRecord({
        localId: 't2',
        status: 'failed',
        images: [],
        endpoint: 'demo:',
        error: { kind: 'task_failed', message: 'The service could not make it.', httpStatus: 200 },
      }),
    );
    expect(logger.lines[0]).toMatchObject({
      level: 'warn',
      message: 'Task failed',
      fields: {
        endpoint: 'demo:',
        errorKind: 'task_failed',
        error: 'The service could not make it.',
        httpStatus: 200,
      },
    });
  });
});
