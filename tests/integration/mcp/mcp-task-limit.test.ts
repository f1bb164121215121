/**
 * `pictor mcp`'s task limit: an agent that loops on `generate` where nothing costs money (the
 * demo has no price, so no spending limit could count it) is stopped after the tasks the user
 * allowed (--max-tasks N, PICTOR_MCP_MAX_TASKS, 200 unless set). Past it a submit is a tool error
 * that names what to change, and nothing is sent; generate, compare and a template's run count
 * alike. The server is the bundled CLI as a child process, driven by the SDK's client over stdio.
 */
import { describe, expect, it } from 'vitest';
import { runCliHere } from '../cli/run-cli';
import { answerOf, mcpLibrary, refusalOf, onService } from './mcp-harness';

const KEY = 'sk-mcp-Tq3vLm8NxR2pWz6KbY4cHs9D';

interface Spending {
  readonly tasksSent: number;
  readonly taskLimit: number;
  readonly limitUsd: number | null;
}

const lib = mcpLibrary(KEY, 'mcp-tasks');

/** The refusal of a submit past the limit: what happened, and what the user changes. */
function expectTaskRefusal(said: string, left: string, limit: string): void {
  expect(said).toContain(`over what is left of this connection's task limit (${left} of ${limit})`);
  expect(said).toContain('Nothing was sent');
  expect(said).toContain('--max-tasks N');
  expect(said).toContain('PICTOR_MCP_MAX_TASKS');
}

describe('pictor mcp: the task limit', () => {
  it('stops a loop of free submits at --max-tasks, and sends nothing past it', async () => {
    const demo = await lib.demo({ durationMs: 100 });
    const mcp = await lib.serve(onService(demo.url, ['--max-tasks', '3']));
    const first = answerOf<{ spending: Spending }>(
      await mcp.call('generate', { prompt: 'one', count: 2 }),
    );
    expect(first.spending).toMatchObject({ tasksSent: 2, taskLimit: 3, limitUsd: null });
    expectTaskRefusal(
      refusalOf(await mcp.call('generate', { prompt: 'two more', count: 2 })),
      '1 task',
      '3 tasks',
    );
    answerOf(await mcp.call('generate', { prompt: 'the last one' }));
    // The loop an agent runs: every later call is refused, however small.
    for (let call = 0; call < 5; call += 1) {
      expectTaskRefusal(
        refusalOf(await mcp.call('generate', { prompt: `again ${String(call)}` })),
        '0 tasks',
        '3 tasks',
      );
    }
    expect(demo.tasks(), 'nothing sent past the limit').toHaveLength(3);
  }, 120_000);

  it('counts a compare and a template run by their tasks, as generate', async () => {
    const mcp = await lib.serve(
      ['--provider', 'demo', '--poll-interval', '0.1', '--max-tasks', '4'],
      {
        env: { PICTOR_DEMO_DURATION_MS: '100' },
      },
    );
    const targets = [{ service: 'demo' }, { service: 'demo:fal' }, { service: 'demo' }];
    const compared = answerOf<{ tasks: unknown[]; spending: Spending }>(
      await mcp.call('compare', { prompt: 'a tidal pool', targets }),
    );
    expect(compared.tasks).toHaveLength(3);
    expect(compared.spending.tasksSent).toBe(3);
    expectTaskRefusal(
      refusalOf(await mcp.call('compare', { prompt: 'again', targets })),
      '1 task',
      '4 tasks',
    );
    await lib.pictor(['template', 'add', 'Pair', '--body', '{a|b} at dusk']);
    expectTaskRefusal(
      refusalOf(await mcp.call('generate', { template: { name: 'pair' } })),
      '1 task',
      '4 tasks',
    );
  }, 120_000);

  it('takes its limit from PICTOR_MCP_MAX_TASKS, the option winning, and is 200 unless set', async () => {
    const demo = await lib.demo({ durationMs: 100 });
    const fromEnv = await lib.serve(onService(demo.url), { env: { PICTOR_MCP_MAX_TASKS: '1' } });
    answerOf(await fromEnv.call('generate', { prompt: 'one' }));
    expectTaskRefusal(
      refusalOf(await fromEnv.call('generate', { prompt: 'two' })),
      '0 tasks',
      '1 task',
    );
    const both = await lib.serve(onService(demo.url, ['--max-tasks', '2']), {
      env: { PICTOR_MCP_MAX_TASKS: '1' },
    });
    const two = answerOf<{ spending: Spending }>(
      await both.call('generate', { prompt: 'two', count: 2 }),
    );
    expect(two.spending).toMatchObject({ tasksSent: 2, taskLimit: 2 });
    const unset = await lib.serve(onService(demo.url));
    const byDefault = answerOf<{ spending: Spending }>(
      await unset.call('generate', { prompt: 'one' }),
    );
    expect(byDefault.spending).toMatchObject({ tasksSent: 1, taskLimit: 200 });
  }, 120_000);

  it('names the limit in its help, and refuses a limit that is not a whole number of tasks', async () => {
    const help = await runCliHere(['mcp', '--help'], { key: KEY, home: lib.home });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--max-tasks N');
    expect(help.stdout).toContain('PICTOR_MCP_MAX_TASKS');
    expect(help.stdout).toContain('200 unless set');
    for (const wrong of ['0', '-1', '2.5', 'many', '1e3', '1000001']) {
      const run = await runCliHere(
        ['mcp', '--provider', 'demo', '--max-tasks', wrong, '--data-dir', lib.dataDir],
        { key: KEY, home: lib.home },
      );
      expect(run.code, wrong).toBe(2);
      expect(run.stderr, wrong).toContain('--max-tasks takes a whole number of tasks from 1 to');
    }
  }, 120_000);
});
