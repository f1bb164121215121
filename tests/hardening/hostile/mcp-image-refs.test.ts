/**
 * `pictor mcp` names images by reference (`task-id#N`), and the tools that take one back
 * (get_image, rate, flag, tag, add_to_board) take only letters, digits and `._:-`. A task's id is
 * its service's, which may hold any character but spaces and controls (service/task-id.ts): a
 * slash, `+` and `=` (a base64 id), `#`, `%`, brackets (an id the app's sweep redacted to
 * `task-[redacted]`), letters of other scripts. Such a task's images were listed under references
 * the same server then refused ("An image is named task-id#N."), or that named another image (an
 * id holding `#7`). Now an image whose task id cannot be a reference is named by its task's local
 * id: every reference list_images, list_tasks and task_status give is taken back, and names that
 * image. The real CLI over stdio, tasks made by the demo service on loopback, their ids then
 * kept as such a service gave them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { answerOf, mcpLibrary } from '../../integration/mcp/mcp-harness';
import { QUICK_POLL } from '../../support/quick-demo';

const lib = mcpLibrary('sk-unused-mcp-refs-8Kd2Lw', 'mcp-refs');

/** Ids a service may give (checkTaskId takes each) that are no reference as they are. */
const SERVICE_IDS = [
  'c2VydmljZS9pZA+/x==',
  'urn:prompt#7',
  'task-[redacted]',
  'задача-42',
  'run%2Fone',
  'a,b;c=d',
];

interface Listed {
  images: { ref: string; prompt: string }[];
}

describe('an image reference the server gives', () => {
  it('is taken back by every tool that takes one, whatever its task id holds', async () => {
    const demo = await lib.demo({ durationMs: 10 });
    // Its tasks (10 ms each) looked at every 0.1 s, not every 3 s (QUICK_POLL).
    const args = ['--provider', 'pictor', '--base-url', demo.url, ...QUICK_POLL];
    let mcp = await lib.serve(args);
    const made = answerOf<{ tasks: { localId: string }[] }>(
      await mcp.call('generate', {
        prompt: 'a quiet harbour',
        count: SERVICE_IDS.length,
        wait: true,
      }),
    );
    await mcp.close();
    const history = HistoryStore.open(join(lib.dataDir, HISTORY_FILE));
    const prompts = new Map<string, string>();
    for (const [n, task] of made.tasks.entries()) {
      const prompt = `harbour ${String(n)}`;
      const record = history.get(task.localId)!;
      history.put({ ...record, taskId: SERVICE_IDS[n]!, request: { ...record.request, prompt } });
      prompts.set(task.localId, prompt);
    }
    history.close();

    mcp = await lib.serve(args);
    const listed = answerOf<Listed>(await mcp.call('list_images', { limit: 100 }));
    const statuses = await Promise.all(
      made.tasks.map(async (task) =>
        answerOf<{ images: { ref: string }[] }>(
          await mcp.call('task_status', { task: task.localId }),
        ),
      ),
    );
    const refs = [
      ...listed.images.map((image) => [image.ref, image.prompt] as const),
      ...statuses.map(
        (status, n) => [status.images[0]!.ref, prompts.get(made.tasks[n]!.localId)!] as const,
      ),
    ];
    expect(refs).toHaveLength(2 * SERVICE_IDS.length);
    for (const [ref, prompt] of refs) {
      const got = await mcp.call('get_image', { ref });
      const facts = answerOf<{ prompt: string; ref: string }>({
        ...(got as object),
        content: (got as { content: { type: string }[] }).content.filter((p) => p.type === 'text'),
      } as never);
      expect({ ref, prompt: facts.prompt }).toEqual({ ref, prompt });
      expect(facts.ref).toBe(ref);
      const rated = answerOf<{ changed: number; unchanged: number; refused: number }>(
        await mcp.call('rate', { refs: [ref], rating: 4 }),
      );
      expect({ ref, ...rated, changed: rated.changed + rated.unchanged }).toEqual({
        ref,
        changed: 1,
        unchanged: rated.unchanged,
        refused: 0,
      });
    }
  });
});
