/**
 * No observer can break an engine path: a listener that throws on every task update (a window
 * gone, a notification backend failing) is logged and skipped, and the tasks still complete, are
 * saved, and every other listener hears every change.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { LogFields, Logger } from '../../../electron/ports/logger';
import { clockedCoreAgainstDemo as coreAgainstDemo } from './core-harness';

function recordingLogger() {
  const errors: { message: string; fields: LogFields | undefined }[] = [];
  const ignore = () => undefined;
  const logger: Logger = {
    debug: ignore,
    info: ignore,
    warn: ignore,
    error: (message, fields) => void errors.push({ message, fields }),
  };
  return { logger, errors };
}

describe('a throwing task listener', () => {
  it('never stops a task: both complete, their images are saved, the other listener hears all', async () => {
    const { logger, errors } = recordingLogger();
    const h = await coreAgainstDemo({ durationMs: 300 }, {}, { logger });
    let thrown = 0;
    h.core.engine.onDidUpdate(() => {
      thrown += 1;
      throw new Error('the window is gone');
    });
    const heard: TaskRecord[] = [];
    h.core.engine.onDidUpdate(({ record }) => heard.push(record));
    h.core.engine.start();
    const submitted = await h.core.engine.submit({ prompt: 'a stubborn observer' }, h.target, 2);
    const done = await h.settle(submitted.map((record) => record.localId));

    expect(done.map((record) => record.status)).toEqual(['completed', 'completed']);
    for (const record of done) {
      const image = record.images[0]!;
      expect(image.state).toBe('saved');
      expect(existsSync(h.core.gallery.resolve(image.file!))).toBe(true);
      expect(h.core.history.get(record.localId)?.status).toBe('completed');
      // Every change the thrower failed on reached the listener after it, the last one included.
      const changes = heard.filter((seen) => seen.localId === record.localId);
      expect(changes.map((seen) => seen.status)).toContain('processing');
      expect(changes.at(-1)).toMatchObject({ status: 'completed', images: [{ state: 'saved' }] });
    }
    // Subscribed for the same changes: the thrower failed on each one the other listener heard.
    expect(thrown).toBe(heard.length);
    const failures = errors.filter((entry) => entry.message === 'an event listener failed');
    expect(failures).toHaveLength(thrown);
    expect(failures[0]?.fields).toEqual({
      event: 'task updated',
      error: 'Error: the window is gone',
    });
    expect(h.service.log.submits).toHaveLength(2);
  }, 30_000);
});
