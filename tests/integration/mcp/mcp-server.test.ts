/**
 * `pictor mcp` driven by the SDK's own client over stdio, as an agent's host starts it: the
 * bundled CLI as a child process, on the demo service on loopback (and the built-in demo with
 * `--provider demo`, no key). Every tool is called; each refuses a hostile input with a clear
 * error; a submit over a hard cap, or over the connection's --max-spend, is a tool error with its
 * sentence and sends nothing; a task left when the server is killed resumes in the next one,
 * never resubmitted; and nothing the server said carries the key in any encoding.
 */
import { describe, expect, it } from 'vitest';
import { carriesKey } from '../../../electron/core/secrets/key-echo';
import { answerOf, mcpLibrary, refusalOf, onService } from './mcp-harness';

const KEY = 'sk-mcp-Zq8vT3mN0pLx4RwK9yHc2Bv7';

interface TaskFacts {
  localId: string;
  taskId: string | null;
  status: string;
  seed: number | null;
  images: {
    ref: string;
    state: string;
    rating: number;
    flag: string;
    tags: string[];
    boards: string[];
  }[];
}

const lib = mcpLibrary(KEY, 'mcp');

describe('pictor mcp', () => {
  it('lists its tools; generates and waits with progress; status, list, get, triage, cancel', async () => {
    const demo = await lib.demo({ durationMs: 300 });
    const mcp = await lib.serve(onService(demo.url));
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'add_to_board',
        'cancel',
        'compare',
        'flag',
        'generate',
        'get_image',
        'list_images',
        'list_tasks',
        'rate',
        'resume',
        'tag',
        'task_status',
      ].sort(),
    );
    const progress: number[] = [];
    const generated = await mcp.client.callTool(
      { name: 'generate', arguments: { prompt: 'a lighthouse at dusk', wait: true } },
      undefined,
      { onprogress: (note) => progress.push(note.progress), timeout: 60_000 },
    );
    const { tasks } = answerOf<{ tasks: TaskFacts[] }>(generated as never);
    const [task] = tasks;
    expect(task).toMatchObject({ status: 'completed' });
    expect(progress.length, 'progress was notified').toBeGreaterThan(0);
    const ref = task!.images[0]!.ref;
    expect(ref).toMatch(/#1$/);

    const status = answerOf<TaskFacts>(await mcp.call('task_status', { task: task!.taskId }));
    expect(status).toMatchObject({ localId: task!.localId, status: 'completed' });

    const image = await mcp.call('get_image', { ref, as: 'file' });
    if (image instanceof Error) throw image;
    expect(image.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(image.content[1]).toMatchObject({ type: 'text' });
    expect(JSON.parse((image.content[1] as { text: string }).text)).toMatchObject({
      ref,
      prompt: 'a lighthouse at dusk',
      contentCredentials: expect.any(String),
    });

    expect(answerOf(await mcp.call('rate', { refs: [ref], rating: 4 }))).toMatchObject({
      changed: 1,
    });
    expect(answerOf(await mcp.call('flag', { refs: [ref], flag: 'pick' }))).toMatchObject({
      changed: 1,
    });
    expect(answerOf(await mcp.call('tag', { refs: [ref], tag: 'coast' }))).toMatchObject({
      changed: 1,
    });
    expect(
      answerOf(await mcp.call('add_to_board', { refs: [ref], board: 'Trips/Lisbon' })),
    ).toMatchObject({ changed: 1 });
    const listed = answerOf<{ images: TaskFacts['images'] }>(
      await mcp.call('list_images', {
        rating: { op: '>=', value: 4 },
        flag: 'pick',
        tags: { mode: 'all', keys: ['coast'] },
        board: 'Trips/Lisbon',
        provider: 'pictor',
        search: 'lighthouse',
      }),
    );
    expect(listed.images.map((row) => row.ref)).toEqual([ref]);
    expect(listed.images[0]).toMatchObject({
      rating: 4,
      flag: 'pick',
      tags: ['coast'],
      boards: ['Trips/Lisbon'],
    });
    const none = answerOf<{ images: unknown[] }>(await mcp.call('list_images', { flag: 'reject' }));
    expect(none.images).toEqual([]);

    const canceled = answerOf<{ cancel: string }>(
      await mcp.call('cancel', { task: task!.localId }),
    );
    expect(canceled.cancel).not.toBe('canceled');
    expect(demo.tasks()).toHaveLength(1);
  }, 120_000);

  it('runs on the built-in demo with no key (--provider demo)', async () => {
    // The built-in demo's tasks take 200 ms here, not its few seconds (PICTOR_DEMO_DURATION_MS).
    const mcp = await lib.serve(['--provider', 'demo', '--poll-interval', '0.1'], {
      key: null,
      env: { PICTOR_DEMO_DURATION_MS: '200' },
    });
    const { tasks } = answerOf<{ tasks: TaskFacts[] }>(
      await mcp.call('generate', { prompt: 'a red kite', count: 2, wait: true }),
    );
    expect(tasks.map((task) => task.status)).toEqual(['completed', 'completed']);
  }, 120_000);

  it('resumes, in a new server, a task left when the last one was killed; never resubmits', async () => {
    // The task runs until the test completes it, once the first server is gone.
    const demo = await lib.demo({ durationMs: 600_000 });
    const first = await lib.serve(onService(demo.url));
    const { tasks } = answerOf<{ tasks: TaskFacts[] }>(
      await first.call('generate', { prompt: 'slow glacier' }),
    );
    const [task] = tasks;
    expect(task?.taskId, 'generate returns the id the service gave').toBe(demo.tasks()[0]?.id);
    process.kill(first.pid, 'SIGKILL');
    demo.completeTask(task!.taskId!);
    const second = await lib.serve(onService(demo.url));
    const resumed = answerOf<{ tasks: TaskFacts[] }>(
      await second.call('resume', { task: task!.localId, wait: true }),
    );
    expect(resumed.tasks[0]).toMatchObject({ localId: task!.localId, status: 'completed' });
    expect(demo.tasks(), 'resume never submits').toHaveLength(1);
  }, 120_000);

  it("refuses a submit over a hard cap with the cap's sentence, and one over --max-spend", async () => {
    const demo = await lib.demo({ durationMs: 200 });
    await lib.price('0.04');
    await lib.pictor(['caps', 'set', '--period', 'day', '--amount', '0.05', '--unit', 'USD']);
    const mcp = await lib.serve(onService(demo.url, ['--max-spend', '0.10']));
    const over = refusalOf(await mcp.call('generate', { prompt: 'two', count: 2 }));
    expect(over).toContain('Nothing was submitted');
    expect(over).toContain('daily hard cap');
    await lib.pictor(['caps', 'clear', '--period', 'day', '--unit', 'USD']);
    answerOf(await mcp.call('generate', { prompt: 'two', count: 2 }));
    const limit = refusalOf(await mcp.call('generate', { prompt: 'one more', count: 1 }));
    expect(limit).toContain("this connection's spending limit");
    expect(limit).toContain('Nothing was sent');
    expect(demo.tasks(), 'nothing sent past a refusal').toHaveLength(2);
  }, 120_000);

  it('refuses a hostile input to every tool with a clear error, and never echoes the key', async () => {
    const demo = await lib.demo({ durationMs: 200 });
    const mcp = await lib.serve(onService(demo.url));
    const hostile: [string, Record<string, unknown>][] = [
      ['generate', { prompt: '' }],
      ['generate', { prompt: 'x', count: 1_000 }],
      ['generate', { prompt: 'x'.repeat(100_000) }],
      ['generate', { prompt: 'x', size: '../../etc/passwd' }],
      ['generate', { prompt: `a lighthouse, ${KEY}` }],
      ['generate', { prompt: `a lighthouse ${Buffer.from(KEY).toString('base64')}` }],
      ['task_status', { task: KEY }],
      ['task_status', { task: 'x'.repeat(10_000) }],
      ['resume', { task: 'nope-nope' }],
      ['resume', { task: 'x', waitSeconds: 1e9 }],
      ['cancel', { task: '' }],
      ['list_images', { limit: 100_000 }],
      ['list_images', { path: '/etc' }],
      ['get_image', { ref: '/etc/passwd' }],
      ['get_image', { ref: 'http://127.0.0.1:1/x.png' }],
      ['get_image', { ref: `${KEY}#1` }],
      ['rate', { refs: ['abcd#1'], rating: 9 }],
      ['rate', { refs: [], rating: 1 }],
      ['flag', { refs: ['abcd#1'], flag: 'burn' }],
      ['tag', { refs: ['abcd#1'], tag: '' }],
      ['add_to_board', { refs: ['abcd#1'], board: 'b'.repeat(5_000) }],
      ['add_to_board', { refs: [KEY], board: 'Trips' }],
    ];
    for (const [tool, args] of hostile) {
      const said = refusalOf(await mcp.call(tool, args));
      expect(said.length, `${tool} said why`).toBeGreaterThan(10);
      expect(carriesKey(said, KEY), `${tool} echoed the key`).toBe(false);
    }
    expect(demo.tasks(), 'nothing was sent').toHaveLength(0);
  }, 120_000);
});
