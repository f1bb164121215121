/**
 * tests/support/bidi-once.ts: jsdom's directionality lookups build bidi's tables once per thread,
 * in every project that sets up jsdom.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import config, { JSDOM_ARGV } from '../../../vitest.config';

/** jsdom with `dir="auto"` elements styled 40 times, then the count of bidi tables built. */
const STYLED = `
import { JSDOM } from 'jsdom';
const dom = new JSDOM('<main dir="auto"><p dir="auto"><b>שלום</b> hello</p><input dir="auto" value="abc"></main>');
const { document, getComputedStyle } = dom.window;
for (let round = 0; round < 10; round += 1)
  for (const element of document.querySelectorAll('main, p, b, input')) getComputedStyle(element).direction;
const rtl = document.querySelector('p:dir(rtl)') !== null;
process.stdout.write(JSON.stringify({ built: globalThis[Symbol.for('pictor.tests.bidiTablesBuilt')] ?? 0, rtl }));
`;

function styled(argv: readonly string[]): { built: number; rtl: boolean } {
  const out = execFileSync(process.execPath, [...argv, '--input-type=module', '-e', STYLED], {
    encoding: 'utf8',
  });
  return JSON.parse(out) as { built: number; rtl: boolean };
}

describe('bidi tables built once per thread under jsdom', () => {
  it('builds them once for 40 styled elements, with the same directions found', () => {
    expect(styled(JSDOM_ARGV)).toEqual({ built: 1, rtl: true });
    // Without the preload the selector engine builds its own at every lookup (none counted).
    expect(styled([])).toEqual({ built: 0, rtl: true });
  });

  it('is preloaded in every project that sets up jsdom', () => {
    const projects = (config.test?.projects ?? []) as {
      test?: { environment?: string; execArgv?: string[] };
    }[];
    const jsdom = projects.filter((project) => project.test?.environment === 'jsdom');
    expect(jsdom.length).toBeGreaterThanOrEqual(5);
    for (const project of jsdom) expect(project.test?.execArgv).toEqual(JSDOM_ARGV);
  });
});
