/**
 * What the engine does when the answer worker stops mid-answer (core/service/answer-reader.ts):
 * a poll's answer lost that way is a failed poll (the task keeps its id, shows the sentence, and
 * is asked again, then completes); a submit's is an unknown outcome, never sent again, even after
 * a restart. The errors are the ones the real reader throws.
 */
import { describe, expect, it } from 'vitest';
import { errorForReaderStopped } from '../../../../electron/core/service/answer-reader';
import { sentence } from '../../../../shared/i18n/sentence';
import { TARGET, engineHarness } from './engine-harness';

describe('TaskEngine: the answer reader stops', () => {
  it('while reading a poll: the task keeps its id, says so, and is asked again', async () => {
    const h = engineHarness();
    h.client.durationMs = 10_000;
    await h.engine.submit({ prompt: 'reader crash' }, TARGET);
    const taskId = 'task-1';
    h.client.pollSteps = [errorForReaderStopped('query', 'ended (exit code 3)')];
    await h.clock.advance(3_000);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'processing',
      taskId,
      error: { kind: 'protocol', sentence: sentence('error.service.answerReaderStoppedQuery') },
    });
    await h.clock.advance(60_000);
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed', taskId, error: null });
    expect(h.client.submits).toHaveLength(1);
  });

  it('while reading a submit: the outcome is unknown and the task is never sent again', async () => {
    const h = engineHarness();
    h.client.submitSteps = [errorForReaderStopped('submit', 'did not finish reading an answer')];
    await h.engine.submit({ prompt: 'reader crash' }, TARGET);
    await h.clock.advance(300_000);
    // The engine says in its own words that the task may have been created.
    expect(h.history.get('local-1')).toMatchObject({
      status: 'submit_unknown',
      error: { kind: 'protocol', sentence: sentence('error.library.submitMayHaveReached') },
    });
    await h.restart();
    await h.clock.advance(300_000);
    expect(h.client.submits).toHaveLength(1);
  });
});
