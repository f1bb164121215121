/**
 * `pictor mcp`'s add_to_board names a board as an agent spells it. A board is one board under
 * every spelling its folded key takes (shared/domain/triage.ts's boardKey: `STRASSE` is `Straße`,
 * `FILES` is `ﬁles`, ` Trips ` is `Trips`), as the window, the CLI and "Generate into" find it. The
 * tool looked for the board with `toLowerCase()` instead, found none, and asked to make it: the
 * library refused ("already exists") and the agent could not add an image to a board the user
 * has. Now it finds the board as every other reader does (Boards.ensure, "Generate into"'s own).
 * The real CLI over stdio, an image made by the demo service on loopback.
 */
import { describe, expect, it } from 'vitest';
import { answerOf, mcpLibrary } from '../../integration/mcp/mcp-harness';
import { QUICK_POLL } from '../../support/quick-demo';

const lib = mcpLibrary('sk-unused-mcp-boards-5Tq9Wz', 'mcp-boards');

/** A board as the user made it, and the same board as an agent spells it. */
const SPELLINGS = [
  ['Straße', 'STRASSE'],
  ['MASSE', 'maße'],
  ['ﬁles', 'FILES'],
  ['Trips/Lisbon', ' trips / LISBON '],
] as const;

interface Listed {
  images: { ref: string; boards: string[] }[];
}

/** What a call came to: its answer's `changed`, or what its refusal said. */
function outcomeOf(result: Parameters<typeof answerOf>[0]): number | string {
  try {
    return answerOf<{ changed: number }>(result).changed;
  } catch (error) {
    return String(error);
  }
}

describe('add_to_board', () => {
  it('adds to the board the user has, under any spelling of it', async () => {
    const demo = await lib.demo({ durationMs: 10 });
    const mcp = await lib.serve(['--provider', 'pictor', '--base-url', demo.url, ...QUICK_POLL]);
    const made = answerOf<{ tasks: { images: { ref: string }[] }[] }>(
      await mcp.call('generate', { prompt: 'a quiet harbour', count: 2, wait: true }),
    );
    const [first, second] = made.tasks.map((task) => task.images[0]!.ref);
    const outcomes: Record<string, number | string> = {};
    const listedIn: Record<string, string[]> = {};
    for (const [board, spelled] of SPELLINGS) {
      const added = answerOf(await mcp.call('add_to_board', { refs: [first], board }));
      expect(added, board).toMatchObject({ changed: 1 });
      outcomes[spelled] = outcomeOf(
        await mcp.call('add_to_board', { refs: [second], board: spelled }),
      );
      const listed = answerOf<Listed>(await mcp.call('list_images', { board, limit: 10 }));
      listedIn[board] = listed.images.map((image) => image.ref).sort();
    }
    expect(outcomes).toEqual(Object.fromEntries(SPELLINGS.map(([, spelled]) => [spelled, 1])));
    const both = [first, second].sort();
    expect(listedIn).toEqual(Object.fromEntries(SPELLINGS.map(([board]) => [board, both])));
    // Each image is in each board once, as the user spelled it: no second board was made.
    const all = answerOf<Listed>(await mcp.call('list_images', { limit: 10 }));
    const boards = SPELLINGS.map(([board]) => board).sort();
    expect(all.images.map((image) => [...image.boards].sort())).toEqual([boards, boards]);
  }, 120_000);
});
