/**
 * A request that names no model on a service with no default one (the image task service's own
 * interface): an option sent with it is refused with a sentence that says so and what to do, the
 * same through `pictor mcp` (the bundled CLI over stdio) and `pictor generate`, never one built
 * around the empty model ("The model  has no option").
 */
import { describe, expect, it } from 'vitest';
import { runCliHere } from '../cli/run-cli';
import { mcpLibrary, refusalOf } from './mcp-harness';

const KEY = 'sk-mcp-Nm5wQ2kZ8rT1yLp4XvB7cJd3';
const SAID =
  'No model is named, so there is no option “num_inference_steps” to set: name the model whose options these are.';

const lib = mcpLibrary(KEY, 'mcp-nomodel');

describe('an option on a request that names no model', () => {
  it('is refused with a sentence that reads right, over MCP and on the command line', async () => {
    const demo = await lib.demo({ durationMs: 100 });
    const service = ['--provider', 'pictor', '--base-url', demo.url];
    const mcp = await lib.serve([...service, '--poll-interval', '0.1']);
    const refused = refusalOf(
      await mcp.call('generate', { prompt: 'a lighthouse', params: { num_inference_steps: 20 } }),
    );
    expect(refused).toContain(SAID);
    expect(refused).not.toMatch(/ {2}/);
    const cli = await runCliHere(
      ['generate', ...service, '--param', 'num_inference_steps=20', '--data-dir', lib.dataDir, 'x'],
      { key: KEY, home: lib.home },
    );
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(SAID);
    expect(demo.tasks(), 'nothing sent').toHaveLength(0);
  }, 120_000);
});
