/**
 * `pictor costs`, `pictor caps list` and a refused submit give one figure per cap (the core's
 * cap-spend.ts), tasks priced since they were sent are shown at today's price in `costs` as the
 * caps count them, and a refusal leads with the cap, what it spent and what the submit adds, then
 * names the `prices set` command for each price it lacks.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { costLibrary, pictor } from './cli-in-process';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

let dataDir: string;
beforeEach(() => {
  dataDir = tempFolderSync('cost-commands');
  costLibrary(dataDir);
});
afterEach(() => removeFolderSync(dataDir));

const at = (args: string[]): string[] => [...args, '--data-dir', dataDir];

describe('one figure per cap', () => {
  it('says the same spend in caps list, costs and their --json', async () => {
    const caps = await pictor(at(['caps', 'list']));
    expect(caps.code).toBe(0);
    const line =
      "hard day cap $0.08 for all services: $0.23 spent this day ($0.20 of it for 4 task(s) of unknown cost at today's price; 2 task(s) it cannot count: no price in USD for bfl)";
    expect(caps.stdout).toBe(`${line}\n`);
    const costs = await pictor(at(['costs']));
    expect(costs.code).toBe(0);
    expect(costs.stdout).toContain(`Caps (as every submit is checked):\n  ${line}\n`);
    const capsJson = JSON.parse((await pictor(at(['caps', 'list', '--json']))).stdout) as {
      caps: unknown[];
    };
    const costsJson = JSON.parse((await pictor(at(['costs', '--json']))).stdout) as {
      caps: unknown[];
    };
    expect(costsJson.caps).toEqual(capsJson.caps);
    expect(capsJson.caps).toEqual([
      {
        period: 'day',
        unit: 'USD',
        provider: null,
        kind: 'hard',
        amount: '0.08',
        spent: '0.23',
        pricedToday: { amount: '0.2', tasks: 4 },
        uncountedTasks: 2,
      },
    ]);
  });

  it('shows tasks priced since they were sent at today’s price in costs', async () => {
    const costs = await pictor(at(['costs']));
    const fal = costs.stdout.split('\n').filter((row) => row.includes(' fal '));
    expect(fal).toHaveLength(4);
    for (const row of fal) expect(row).toMatch(/\$0\.05 +unknown \(today's price per image\)/);
    expect(costs.stdout).toContain(
      "  4 task(s) of unknown cost come to $0.20 at today's price (as the caps count them).\n",
    );
    expect(costs.stdout).toContain('  2 task(s) of unknown cost (no report, no price).\n');
    const json = JSON.parse((await pictor(at(['costs', '--json']))).stdout) as {
      tasks: { provider: string; atTodaysPrice: unknown }[];
      totals: { pricedToday: unknown };
    };
    const priced = json.tasks.filter((one) => one.provider === 'fal');
    expect(priced.map((one) => one.atTodaysPrice)).toEqual(
      Array(4).fill({ source: 'estimated', amount: '0.05', unit: 'USD', detail: 'image' }),
    );
    expect(json.totals.pricedToday).toEqual([{ unit: 'USD', amount: '0.2', tasks: 4 }]);
  });

  it('prints the totals on lines of their own, no break written as an escape', async () => {
    const costs = await pictor(at(['costs', '--time-zone', 'UTC']));
    expect(costs.stdout).toContain('Totals (local dates in UTC):\n  all ');
    expect(costs.stdout).not.toContain('\\x');
  });
});

describe('a refused submit', () => {
  it('leads with the cap, what it spent and what the submit adds, then the prices it lacks', async () => {
    const run = await pictor(
      at([
        'generate',
        '--prompt',
        'a lighthouse',
        '--provider',
        'fal',
        '--base-url',
        'http://127.0.0.1:9',
      ]),
      { SERVICE_API_KEY: 'sk-test-key-0000' },
    );
    expect(run.code, run.stderr).toBe(6);
    expect(run.stderr).toBe(
      [
        'Nothing was submitted: $0.23 of your $0.08 daily hard cap for all services is spent; this submit adds about $0.05.',
        'That passes the cap. Raise it with: pictor caps set --period day --unit USD --amount AMOUNT',
        'It cannot count 2 tasks of Black Forest Labs (model-a) from today: no price in USD. Set one with: pictor prices set --provider bfl --amount PRICE --unit USD',
        '',
      ].join('\n'),
    );
  });
});
