/**
 * The check the OS legs run on the installed `pictor mcp` (tests/e2e/packaged/installed-mcp.ts,
 * `npm run ci:installed -- mcp`), here on the bundled CLI with the workflow's arguments: it
 * passes on a server that works, and fails, saying why, on one that lists no tools it needs and
 * on a command that is no MCP server at all.
 */
import { describe, expect, it } from 'vitest';
import { commandLine } from '../../e2e/packaged/installed-app';
import { checkMcp } from '../../e2e/packaged/installed-mcp';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { offlineDir } from '../../support/offline-core';
import { childEnv } from '../cli/run-cli';
import { QUICK_POLL } from '../../support/quick-demo';

/** A folder of the test's own, removed when the test ends. */
const temp = offlineDir;

describe('the installed app’s MCP check', () => {
  it('passes on pictor mcp --provider demo, as the workflow starts it', async () => {
    const [library, home] = [await temp(), await temp()];
    // The workflow's arguments, then QUICK_POLL: its demo task of 100 ms was waited for through
    // the default 3 s interval (the whole test's 3.5 s); the check judges what the server answers.
    const args = [
      ...nodeEntryArgs('cli'),
      ...['mcp', '--provider', 'demo', '--data-dir', library],
      ...QUICK_POLL,
    ];
    const env = { ...childEnv({ home }), PICTOR_DEMO_DURATION_MS: '100' };
    const verdict = await checkMcp(commandLine(process.execPath, args), env);
    expect(verdict).toMatchObject({ ok: true, line: expect.stringContaining('generated') });
  }, 120_000);

  it('fails, saying why, on a command that is no MCP server', async () => {
    const home = await temp();
    const line = commandLine(process.execPath, [...nodeEntryArgs('cli'), '--version']);
    const verdict = await checkMcp(line, childEnv({ home }));
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.problem).toMatch(/pictor mcp/);
  }, 120_000);
});
