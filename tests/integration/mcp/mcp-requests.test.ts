/**
 * What an agent may ask `pictor mcp` beyond a prompt: the model's own options and a seed (checked
 * by the model's schema before anything is sent, and sent under the service's names), a template
 * of the library (its prompts, priced against the connection's limit first), and the task list
 * with the Tasks screen's filters. The server is the bundled CLI as a child process, driven by
 * the SDK's client, on the demo's fal dialect and the seed's own interface on loopback.
 */
import { describe, expect, it } from 'vitest';
import { carriesKey } from '../../../electron/core/secrets/key-echo';
import { answerOf, mcpLibrary, refusalOf } from './mcp-harness';

const KEY = 'sk-mcp-Hw4nQ8tR2yPz6LcV1bXm5KsJ';

interface TaskFacts {
  localId: string;
  status: string;
  prompt: string;
  seed: number | null;
}

const lib = mcpLibrary(KEY, 'mcp-req');

async function serve(provider: 'fal' | 'pictor', more: readonly string[] = []) {
  const demo = await lib.demo({
    durationMs: 100,
    ...(provider === 'fal' ? { dialect: 'fal' as const } : {}),
  });
  const args = ['--provider', provider, '--base-url', demo.url, '--poll-interval', '0.1'];
  return { mcp: await lib.serve([...args, ...more]), demo };
}

describe('pictor mcp: what a request may carry', () => {
  it("sends the model's options and seed under the service's names; refuses one the model lacks", async () => {
    const { mcp, demo } = await serve('fal');
    const { tasks } = answerOf<{ tasks: TaskFacts[] }>(
      await mcp.call('generate', {
        prompt: 'a lighthouse',
        model: 'fal-ai/flux/dev',
        params: { num_inference_steps: 12, output_format: 'png', enable_safety_checker: false },
        seed: 4242,
        wait: true,
      }),
    );
    expect(tasks[0]).toMatchObject({ status: 'completed', seed: 4242 });
    expect(demo.log.submits[0]?.body).toMatchObject({
      prompt: 'a lighthouse',
      num_inference_steps: 12,
      output_format: 'png',
      enable_safety_checker: false,
      seed: 4242,
    });
    const refused = [
      { num_inference_steps: 5_000 },
      { no_such_option: 1 },
      { output_format: 'gif' },
      JSON.parse('{"__proto__": 1}') as Record<string, unknown>,
    ];
    for (const params of refused) {
      const said = refusalOf(
        await mcp.call('generate', { prompt: 'x', model: 'fal-ai/flux/dev', params }),
      );
      expect(said.length, JSON.stringify(params)).toBeGreaterThan(20);
    }
    expect(
      refusalOf(await mcp.call('generate', { prompt: 'x', model: 'fal-ai/flux/dev', seed: -1 })),
    ).not.toBe('');
    expect(demo.log.submits, 'nothing sent past a refusal').toHaveLength(1);
  }, 120_000);

  it("runs a template of the library, and lists tasks with the Tasks screen's filters", async () => {
    const body = ['--body', 'a {{subject}} in {red|blue} light'];
    await lib.pictor(['template', 'add', 'Scene', ...body]);
    const { mcp, demo } = await serve('pictor');
    const run = answerOf<{ tasks: TaskFacts[] }>(
      await mcp.call('generate', {
        template: { name: 'scene', values: { subject: 'fox' } },
        wait: true,
      }),
    );
    expect(run.tasks.map((task) => task.prompt).sort()).toEqual([
      'a fox in blue light',
      'a fox in red light',
    ]);
    expect(demo.tasks()).toHaveLength(2);
    answerOf(await mcp.call('generate', { prompt: 'light a fox lantern', wait: true }));

    const found = answerOf<{ tasks: TaskFacts[]; nextCursor: string | null }>(
      await mcp.call('list_tasks', { search: 'red fox', statuses: ['completed'] }),
    );
    expect(found.tasks.map((task) => task.prompt)).toEqual(['a fox in red light']);
    const first = answerOf<{ tasks: TaskFacts[]; nextCursor: string | null }>(
      await mcp.call('list_tasks', { limit: 2 }),
    );
    expect(first.tasks[0]?.prompt, 'newest first').toBe('light a fox lantern');
    expect(first.nextCursor).not.toBeNull();
    const rest = answerOf<{ tasks: TaskFacts[]; nextCursor: string | null }>(
      await mcp.call('list_tasks', { limit: 2, cursor: first.nextCursor }),
    );
    expect(rest.tasks).toHaveLength(1);
    expect(rest.nextCursor).toBeNull();

    const hostile: Record<string, unknown>[] = [
      { template: { name: 'no such template' } },
      { template: { name: 'scene' } },
      { template: { name: 'scene', values: { subject: 'x'.repeat(100_000) } } },
      { template: { name: 'scene', values: { subject: KEY } } },
      { template: { name: 'scene', mode: { kind: 'random', count: 10_000, seed: 1 } } },
      { template: { name: 'scene', path: '/etc/passwd' } },
    ];
    for (const args of hostile) {
      const said = refusalOf(await mcp.call('generate', args));
      expect(said.length, JSON.stringify(args).slice(0, 80)).toBeGreaterThan(10);
      expect(carriesKey(said, KEY)).toBe(false);
    }
    for (const args of [{ limit: 10_000 }, { statuses: ['nope'] }, { cursor: 5 }, { path: '/' }]) {
      expect(refusalOf(await mcp.call('list_tasks', args)).length).toBeGreaterThan(10);
    }
    expect(demo.tasks(), 'nothing sent past a refusal').toHaveLength(3);
  }, 120_000);

  it("prices a template's run against the connection's limit before sending", async () => {
    const body = ['--body', 'a {{subject}} in {red|blue|green} light'];
    await lib.pictor(['template', 'add', 'Scene', ...body]);
    await lib.price('0.04');
    const { mcp, demo } = await serve('pictor', ['--max-spend', '0.10']);
    const over = refusalOf(
      await mcp.call('generate', { template: { name: 'scene', values: { subject: 'fox' } } }),
    );
    expect(over).toContain("this connection's spending limit");
    expect(demo.tasks()).toHaveLength(0);
  }, 120_000);

  it("compares one prompt on the demo's dialects side by side, as one group", async () => {
    const mcp = await lib.serve(['--provider', 'demo', '--poll-interval', '0.1'], {
      env: { PICTOR_DEMO_DURATION_MS: '100' },
    });
    type Compared = TaskFacts & { service: string; model: string | null };
    const compared = answerOf<{ group: string; tasks: Compared[] }>(
      await mcp.call('compare', {
        prompt: 'a tidal pool',
        targets: [{ service: 'demo' }, { service: 'demo:fal', model: 'fal-ai/flux/dev' }],
        wait: true,
      }),
    );
    expect(compared.group).toMatch(/^[0-9a-f-]{36}$/);
    // Both on the built-in demo, named as list --json and the window name it; the model tells
    // the dialects apart.
    expect(compared.tasks.map((task) => [task.service, task.model, task.status])).toEqual([
      ['demo', null, 'completed'],
      ['demo', 'fal-ai/flux/dev', 'completed'],
    ]);
    const listed = answerOf<{ tasks: TaskFacts[] }>(
      await mcp.call('list_tasks', { compareGroup: compared.group }),
    );
    expect(listed.tasks).toHaveLength(2);
    const hostile: Record<string, unknown>[] = [
      { prompt: 'x', targets: [{ service: 'demo' }] },
      { prompt: 'x', targets: Array.from({ length: 7 }, () => ({ service: 'demo' })) },
      { prompt: 'x', targets: [{ service: 'demo' }, { service: 'evil' }] },
      { prompt: 'x', targets: [{ service: 'demo' }, { service: 'demo', baseUrl: 'http://x' }] },
      { prompt: '', targets: [{ service: 'demo' }, { service: 'demo:fal' }] },
    ];
    for (const args of hostile) {
      expect(refusalOf(await mcp.call('compare', args)).length).toBeGreaterThan(10);
    }
  }, 120_000);

  it("compares with the model's options: each target's body under its names, the seed, and what one does not take", async () => {
    const { mcp, demo } = await serve('fal');
    const targets = [
      { service: 'fal', model: 'fal-ai/flux/dev' },
      { service: 'fal', model: 'fal-ai/flux-pro/v1.1' },
    ];
    const params = { num_inference_steps: 12, output_format: 'png' };
    const refused = refusalOf(
      await mcp.call('compare', {
        prompt: 'x',
        targets,
        params: { num_inference_steps: 5_000 },
      }),
    );
    expect(refused).toContain(
      'The option “num_inference_steps” takes a whole number from 1 to 50.',
    );
    expect(demo.log.submits, 'nothing sent').toEqual([]);
    const compared = answerOf<{ tasks: TaskFacts[]; notes: string[] }>(
      await mcp.call('compare', { prompt: 'a heron', targets, params, seed: 77, wait: true }),
    );
    expect(compared.tasks.map((task) => task.seed)).toEqual([77, 77]);
    const sent = demo.log.submits.map((entry) => entry.body as Record<string, unknown>);
    const byModel = new Map(demo.log.submits.map((entry, n) => [entry.path, sent[n]]));
    expect(byModel.get('/fal-ai/flux/dev')).toMatchObject({ ...params, seed: 77 });
    const pro = byModel.get('/fal-ai/flux-pro/v1.1');
    expect(pro).toMatchObject({ output_format: 'png', seed: 77 });
    expect(pro).not.toHaveProperty('num_inference_steps');
    expect(compared.notes).toEqual([
      expect.stringMatching(
        /fal-ai\/flux-pro\/v1\.1: This model has no option “num_inference_steps”: it is not sent there\./,
      ),
    ]);
  }, 120_000);

  it("fetches a model's published options on its first use, before typing params, in generate and compare", async () => {
    const { mcp, demo } = await serve('fal');
    const schemaAsks = () => demo.log.requests.filter((entry) => entry.route === 'schema');
    const fetchedOnly = { acceleration: 'high' };
    const generated = answerOf<{ tasks: TaskFacts[]; notes?: string[] }>(
      await mcp.call('generate', {
        prompt: 'a wren',
        model: 'fal-ai/flux/dev',
        params: fetchedOnly,
      }),
    );
    expect(generated.notes).toBeUndefined();
    // fal's schema is public: asked without the key.
    expect(schemaAsks().map((entry) => entry.auth)).toEqual([null]);
    const targets = [
      { service: 'fal', model: 'fal-ai/flux/dev' },
      { service: 'fal', model: 'fal-ai/flux-pro/v1.1' },
    ];
    const compared = answerOf<{ notes: string[] }>(
      await mcp.call('compare', { prompt: 'a heron', targets, params: fetchedOnly, wait: true }),
    );
    expect(compared.notes).toEqual([]);
    // Only the model not kept yet was asked for.
    expect(schemaAsks().map((entry) => entry.path)).toEqual([
      expect.stringContaining('endpoint_id=fal-ai%2Fflux%2Fdev'),
      expect.stringContaining('endpoint_id=fal-ai%2Fflux-pro%2Fv1.1'),
    ]);
    const sent = demo.log.submits.map((entry) => entry.body as Record<string, unknown>);
    expect(sent).toEqual([
      expect.objectContaining(fetchedOnly),
      expect.objectContaining(fetchedOnly),
      expect.objectContaining(fetchedOnly),
    ]);
  }, 120_000);

  it('falls back to the shipped options with a note when a published schema is hostile', async () => {
    const { mcp, demo } = await serve('fal');
    const deep = `${'['.repeat(60)}${']'.repeat(60)}`;
    demo.addFault({ route: 'schema', effect: { type: 'body', body: `{"paths":${deep}}` } });
    const shipped = answerOf<{ notes?: string[] }>(
      await mcp.call('generate', {
        prompt: 'a wren',
        model: 'fal-ai/flux/dev',
        params: { num_inference_steps: 12 },
      }),
    );
    expect(shipped.notes).toEqual([
      expect.stringMatching(/too large, too deep.*the options Pictor knows stay in use/),
    ]);
    expect(demo.log.submits[0]?.body).toMatchObject({ num_inference_steps: 12 });
    const refused = refusalOf(
      await mcp.call('generate', {
        prompt: 'a wren',
        model: 'fal-ai/flux/dev',
        params: { acceleration: 'high' },
      }),
    );
    expect(refused).toMatch(/too large, too deep.*has no option “acceleration”/s);
    expect(demo.log.submits, 'nothing sent past the refusal').toHaveLength(1);
  }, 120_000);

  it('keeps every key it holds out of prompts and answers; a demo target needs the demo', async () => {
    const falKey = 'fal-key-Qm3Vt8Rw1Xz5Lp9Kj2Hn';
    const service = await lib.demo({ durationMs: 100 });
    const args = ['--provider', 'pictor', '--base-url', service.url, '--poll-interval', '0.1'];
    const mcp = await lib.serve(args, { env: { PICTOR_KEY_FAL: falKey } });
    const said = refusalOf(await mcp.call('generate', { prompt: `a fox ${falKey}` }));
    expect(said).toContain('API key');
    const demoOnly = refusalOf(
      await mcp.call('compare', {
        prompt: 'x',
        targets: [{ service: 'pictor' }, { service: 'demo:fal' }],
      }),
    );
    expect(demoOnly).toContain('built-in demo');
    expect(carriesKey(mcp.said(), falKey)).toBe(false);
    expect(service.tasks(), 'nothing sent').toHaveLength(0);
  }, 120_000);
});
