/**
 * `TaskEngine.start` called again while the engine's own submits are out. `pictor mcp` starts the
 * engine once and again in each generate, compare, resume and cancel an agent calls, and an agent
 * sends its calls side by side; a pause's resume starts it again too. A task of this very engine
 * whose request is on its way is not one "its process ended during": it must stay the engine's,
 * answered and finished as any other, never marked as interrupted (its service made it, and paid
 * for it; a task so marked is never polled, so its image would never arrive).
 */
import { describe, expect, it } from 'vitest';
import { engineHarness } from '../../unit/core/engine/engine-harness';

/** A submit the test answers when it chooses. */
function heldSubmit(): { step: () => Promise<never>; answer: () => void } {
  let answer = (): void => undefined;
  const answered = new Promise<never>((resolve) => {
    answer = () => resolve(undefined as never);
  });
  return { step: () => answered, answer };
}

describe('TaskEngine.start while its own submits are out', () => {
  for (const resume of [false, true]) {
    it(`start({ resume: ${String(resume)} }) leaves them to finish as any other`, async () => {
      const h = engineHarness();
      const held = [heldSubmit(), heldSubmit(), heldSubmit()];
      h.client.submitSteps = held.map((one) => one.step);
      h.engine.start({ resume: false });
      // One at a time, as separate calls send them (an agent's generate each), a start after each.
      const sent = [];
      for (const prompt of ['first', 'second', 'third']) {
        sent.push(...(await h.engine.submit({ prompt }, h.target, 1)));
        await h.clock.advance(0);
        h.engine.start({ resume });
      }
      expect(h.client.submits, 'every request is out').toHaveLength(3);
      for (const one of held) one.answer();
      await h.clock.advance(30_000);
      for (const { localId } of sent) {
        const record = h.history.get(localId);
        expect(record?.status, `${localId}: ${JSON.stringify(record?.error)}`).toBe('completed');
        expect(record?.taskId).not.toBeNull();
      }
      expect(h.client.submits, 'nothing sent twice').toHaveLength(3);
    });
  }
});
