/**
 * The CLI's cost commands against the demo service on loopback, through the CLI's entry in this
 * process (run-cli.ts's runCliHere) but for the submits racing under one cap, real processes: the ledger
 * (`costs`, `--json`, `--csv`), the cost in `list --json`, prices and caps the commands share,
 * a submit a hard cap stops (exit 6, the sentence), and two processes submitting at once under
 * one cap: together they never pass it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService, DemoServiceOptions } from '../../../electron/demo-service/types';
import { describeRun, jsonLines, newDataDir, runCli, runCliHere, type CliRun } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let service: DemoService;
let dataDir: string;
let home: string;

async function start(options: DemoServiceOptions): Promise<void> {
  service = await startDemoService({ durationMs: 300, ...options });
}

beforeEach(async () => {
  dataDir = await newDataDir('costs-data');
  home = await tempFolder('costs-home');
});

afterEach(async () => {
  await service?.close();
  await removeFolder(dataDir);
  await removeFolder(home);
});

function withLibrary(args: readonly string[]): string[] {
  const full = [...args, '--data-dir', dataDir];
  if (args[0] === 'generate') full.push('--base-url', service.url, '--poll-interval', '0.1');
  return full;
}

/** `pictor <args>` on this test's library; generate goes to the demo with its key. */
function pictor(args: readonly string[]): Promise<CliRun> {
  return runCliHere(withLibrary(args), { key: 'demo', home });
}

/** The same as a process of its own: processes that share the library and its caps at once. */
function spawned(args: readonly string[]): Promise<CliRun> {
  return runCli(withLibrary(args), { key: 'demo', home, timeoutMs: 60_000 });
}

function expectExit(run: CliRun, code: number): void {
  expect(run.code, describeRun(run)).toBe(code);
}

describe('pictor costs', () => {
  it('lists each task with its source and totals per unit; list --json and --csv carry the cost', async () => {
    await start({ cost: { where: 'late', usage: { cost: '0.04', currency: 'USD' } } });
    expectExit(await pictor(['generate', '--prompt', 'a lighthouse', '--count', '2']), 0);
    const listed = jsonLines(await pictor(['list', '--json'])) as unknown as {
      cost: unknown;
    }[];
    expect(listed.map((line) => line.cost)).toEqual([
      { source: 'reported', amount: '0.04', unit: 'USD', detail: 'usage.cost' },
      { source: 'reported', amount: '0.04', unit: 'USD', detail: 'usage.cost' },
    ]);
    const json = await pictor(['costs', '--json', '--time-zone', 'UTC']);
    expectExit(json, 0);
    const ledger = JSON.parse(json.stdout) as {
      tasks: { cost: { source: string } }[];
      totals: { overall: unknown[]; byService: unknown[] };
    };
    expect(ledger.tasks.map((task) => task.cost.source)).toEqual(['reported', 'reported']);
    expect(ledger.totals.overall).toEqual([
      { unit: 'USD', amount: '0.08', estimated: '0', tasks: 2 },
    ]);
    expect(ledger.totals.byService).toEqual([
      { provider: 'pictor', unit: 'USD', amount: '0.08', estimated: '0', tasks: 2 },
    ]);
    const text = await pictor(['costs', '--provider', 'pictor']);
    expect(text.stdout).toMatch(/\$0\.04 +reported \(usage\.cost\)/);
    expect(text.stdout).toMatch(/all +\$0\.08, 2 task\(s\)/);
    const csv = await pictor(['costs', '--csv', '--since', '2000-01-01']);
    expectExit(csv, 0);
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'local_date,created_at,provider,model,prompt,task_id,local_id,status,source,amount,unit,detail,in_history',
    );
    expect(csv.stdout.split('\r\n')).toHaveLength(4);
    expect((await pictor(['costs', '--since', 'yesterday'])).code).toBe(2);
  }, 90_000);
});

describe('pictor caps', () => {
  it('a hard cap stops the submit that would pass it: exit 6 with the cap and the amount spent', async () => {
    await start({});
    expectExit(
      await pictor(['prices', 'set', '--provider', 'pictor', '--amount', '0.04', '--unit', 'usd']),
      0,
    );
    expectExit(
      await pictor(['caps', 'set', '--period', 'day', '--amount', '0.1', '--unit', 'USD']),
      0,
    );
    expectExit(
      await pictor([
        'caps',
        'set',
        '--period',
        'month',
        '--amount',
        '0.05',
        '--unit',
        'USD',
        '--soft',
      ]),
      0,
    );
    const warned = await pictor(['generate', '--prompt', 'first', '--count', '2']);
    expectExit(warned, 0);
    expect(warned.stderr).toContain(
      'This submit passes your soft monthly spending cap of $0.05 for all services: $0.00 spent so far, and it adds about $0.08.',
    );
    const refused = await pictor(['generate', '--prompt', 'second']);
    expectExit(refused, 6);
    // The cap first, what its day spent and what this submit adds; then how to raise it.
    expect(refused.stderr).toContain(
      'Nothing was submitted: $0.08 of your $0.10 daily hard cap for all services is spent; this submit adds about $0.04.\n' +
        'That passes the cap. Raise it with: npm run -s cli -- caps set --period day --unit USD --amount AMOUNT\n',
    );
    expect(service.tasks(), 'nothing sent').toHaveLength(2);
    const caps = JSON.parse((await pictor(['caps', 'list', '--json'])).stdout) as {
      caps: unknown[];
    };
    const spent = { spent: '0.08', pricedToday: { amount: '0', tasks: 0 }, uncountedTasks: 0 };
    expect(caps.caps).toEqual([
      { period: 'day', unit: 'USD', provider: null, kind: 'hard', amount: '0.1', ...spent },
      { period: 'month', unit: 'USD', provider: null, kind: 'soft', amount: '0.05', ...spent },
    ]);
    const prices = await pictor(['prices', 'list']);
    expect(prices.stdout).toBe('pictor (every model): $0.04 per image\n');
    expectExit(await pictor(['caps', 'clear']), 0);
    expectExit(await pictor(['generate', '--prompt', 'second']), 0);
  }, 90_000);

  it('refuses a bad amount or model with exit 2 and a sentence, never exit 70 or a schema’s words', async () => {
    const runs = await Promise.all([
      pictor(['caps', 'set', '--period', 'day', '--amount', '-1', '--unit', 'USD']),
      pictor(['prices', 'set', '--provider', 'fal', '--amount', '5000000', '--unit', 'USD']),
      pictor(['prices', 'set', '--provider', 'fal', '--amount', '0.0000001', '--unit', 'USD']),
      pictor([
        ...['prices', 'set', '--provider', 'fal', '--amount', '1', '--unit', 'USD'],
        ...['--model', 'm'.repeat(5_000)],
      ]),
    ]);
    for (const run of runs) expectExit(run, 2);
    expect(runs.map((run) => run.stderr.trim())).toEqual([
      expect.stringContaining('--amount "-1" is negative; a cap is from $0.00 to'),
      expect.stringContaining('--amount "5000000" is more than $1,000,000.00'),
      expect.stringContaining('--amount "0.0000001" is finer than $0.000001'),
      expect.stringContaining(
        "--model is 5000 characters long; a price's model name takes at most 200.",
      ),
    ]);
    for (const run of runs) expect(run.stderr).not.toMatch(/zod|ZodError|too_big|invalid_type/i);
    expect(JSON.parse((await pictor(['prices', 'list', '--json'])).stdout)).toEqual({ prices: [] });
    expect(JSON.parse((await pictor(['caps', 'list', '--json'])).stdout)).toMatchObject({
      caps: [],
    });
    expectExit(
      await pictor(['prices', 'set', '--provider', 'fal', '--amount', '$.05', '--unit', 'USD']),
      0,
    );
    expect((await pictor(['prices', 'list'])).stdout).toBe('fal (every model): $0.05 per image\n');
  }, 90_000);

  it('holds across two processes submitting at once: one is refused, the cap is never passed', async () => {
    await start({ cost: { where: 'late', usage: { cost: 0.04 } } });
    await pictor(['prices', 'set', '--provider', 'pictor', '--amount', '0.04', '--unit', 'USD']);
    await pictor(['caps', 'set', '--period', 'month', '--amount', '0.1', '--unit', 'USD']);
    const runs = await Promise.all(
      [1, 2].map((n) => spawned(['generate', '--prompt', `race ${n}`, '--count', '2'])),
    );
    const codes = runs.map((run) => run.code).sort();
    expect(codes, runs.map(describeRun).join('\n')).toEqual([0, 6]);
    expect(service.tasks()).toHaveLength(2);
    const ledger = JSON.parse((await pictor(['costs', '--json'])).stdout) as {
      totals: { overall: { amount: string }[] };
    };
    expect(ledger.totals.overall.map((total) => total.amount)).toEqual(['0.08']);
  }, 120_000);

  it('holds in another unit across three processes: a credits cap over tasks priced in money and credits', async () => {
    // The service reports what each task cost in credits; the user priced it in both units.
    await start({ cost: { where: 'late', usage: { credits: 2 } } });
    const price = ['prices', 'set', '--provider', 'pictor', '--amount'];
    expectExit(await pictor([...price, '0.04', '--unit', 'USD']), 0);
    expectExit(await pictor([...price, '2', '--unit', 'credits']), 0);
    await pictor(['caps', 'set', '--period', 'day', '--amount', '5', '--unit', 'credits']);
    const runs = await Promise.all(
      [1, 2, 3].map((n) => spawned(['generate', '--prompt', `credits race ${n}`])),
    );
    const codes = runs.map((run) => run.code).sort();
    expect(codes, runs.map(describeRun).join('\n')).toEqual([0, 0, 6]);
    expect(service.tasks(), 'the third never reached the service').toHaveLength(2);
    const caps = JSON.parse((await pictor(['caps', 'list', '--json'])).stdout) as {
      caps: { spent: string }[];
    };
    expect(caps.caps.map((cap) => cap.spent)).toEqual(['4']);
  }, 120_000);
});
