/**
 * The README's list of `pictor mcp`'s tools ("Its tools: …") is the tools the server registers
 * (`server.registerTool('name', …)` in electron/cli/mcp/): a tool added, renamed or dropped cannot
 * leave an agent's user reading of one that is not there.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/source-files';

const MCP = 'electron/cli/mcp';

/** The tool names the server's files register. */
function registered(): string[] {
  return readdirSync(join(REPO_ROOT, MCP))
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) => {
      const text = readFileSync(join(REPO_ROOT, MCP, name), 'utf8');
      return [...text.matchAll(/registerTool\(\s*'([a-z_]+)'/g)].map(([, tool]) => tool!);
    });
}

/** The names the sentence lists at its own level (what its parentheses say of each left out). */
function listedTools(readme: string): string[] {
  const text = readme.replace(/\s+/g, ' ');
  const start = text.indexOf('Its tools: ');
  if (start === -1) return [];
  let depth = 0;
  let top = '';
  for (const char of text.slice(start + 'Its tools: '.length)) {
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (depth === 0 && char === '.') break;
    else if (depth === 0) top += char;
  }
  return [...top.matchAll(/`([a-z_]+)`/g)].map(([, tool]) => tool!);
}

describe("the README's tools of pictor mcp", () => {
  it('are the tools the server registers', () => {
    const tools = registered();
    expect(tools.length).toBeGreaterThan(8);
    expect(listedTools(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).sort()).toEqual(
      tools.sort(),
    );
  });

  it('are read at the sentence’s own level', () => {
    expect(
      listedTools('Its tools: `generate` (a `seed`, or (`wait`)), `rate` and `tag`. Then `other`.'),
    ).toEqual(['generate', 'rate', 'tag']);
  });
});
