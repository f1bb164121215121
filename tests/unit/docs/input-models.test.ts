/**
 * docs/SERVICE.md's tables of "Images as inputs" (one per service) say what the one table of the
 * code says (shared/domain/model-capabilities.ts): the same models, each with the same operations,
 * upscale factors and references, and a mask convention on its fill row only, the one it reads.
 * A model added, dropped or taught an operation cannot leave the page saying the old thing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_CAPABILITIES } from '../../../shared/domain/model-capabilities';
import type { ProviderId } from '../../../shared/domain/providers';
import { REPO_ROOT } from '../../support/source-files';

/** The page's section of each service whose models take images (the demo's is prose). */
const SECTIONS: Readonly<Partial<Record<ProviderId, string>>> = {
  bfl: '### Black Forest Labs',
  fal: '### fal.ai',
  replicate: '### Replicate',
  dashscope: '### DashScope (Model Studio)',
};

/** One row as `model operation [×factors] [refs N] mask`, the way both sides are compared. */
function rowsOfSection(page: string, heading: string): string[] {
  const start = page.indexOf(`\n${heading}\n`);
  if (start === -1) return [`no section ${heading}`];
  const end = page.indexOf('\n#', start + heading.length + 2);
  const rows = page
    .slice(start, end === -1 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return rows.flatMap((line) => {
    const cells = line.split(' | ');
    const models = [...(cells[0] ?? '').matchAll(/`([^`]+)`/g)].map(([, model]) => model!);
    const operation = cells[1] ?? '';
    const factors = [...operation.matchAll(/×(\d)/g)].map(([, factor]) => factor).join(',');
    const references = /up to (\d+) references/.exec(operation)?.[1];
    const mask = (cells.at(-1) ?? '').replace(/\s*\|\s*$/, '').trim();
    return models.map((model) =>
      [
        model,
        operation.split(/[ ,]/)[0],
        ...(factors ? [`×${factors}`] : []),
        ...(references ? [`refs ${references}`] : []),
        mask,
      ].join(' '),
    );
  });
}

/** The same rows from the code's table. */
function rowsOfCode(provider: ProviderId): string[] {
  return Object.entries(MODEL_CAPABILITIES[provider]).flatMap(([model, capabilities]) =>
    capabilities.operations.map((operation) =>
      [
        model,
        operation,
        ...(operation === 'upscale' ? [`×${capabilities.upscale.join(',')}`] : []),
        ...(capabilities.references > 0 ? [`refs ${capabilities.references}`] : []),
        operation === 'fill' ? (capabilities.mask ?? 'none') : 'none',
      ].join(' '),
    ),
  );
}

describe('SERVICE.md\'s tables of "Images as inputs"', () => {
  const page = readFileSync(join(REPO_ROOT, 'docs/SERVICE.md'), 'utf8');

  it('cover every service whose models take images, besides the demo (described apart)', () => {
    const withModels = (Object.keys(MODEL_CAPABILITIES) as ProviderId[]).filter(
      (provider) => Object.keys(MODEL_CAPABILITIES[provider]).length > 0 && provider !== 'pictor',
    );
    expect(Object.keys(SECTIONS).sort()).toEqual(withModels.sort());
  });

  it.each(Object.entries(SECTIONS))('say what the code does for %s', (provider, heading) => {
    expect(rowsOfSection(page, heading!).sort()).toEqual(rowsOfCode(provider as ProviderId).sort());
  });

  it('are read as written', () => {
    const made = [
      '',
      '### Somewhere',
      '| `a`, `b` | edit, up to 7 references | x | y | none |',
      '| `c` | upscale ×2, ×4 | x | y | none |',
      '| `c` | fill | x | y | white-edit |',
      '## Next',
      '| `d` | edit | x | y | none |',
    ].join('\n');
    expect(rowsOfSection(made, '### Somewhere')).toEqual([
      'a edit refs 7 none',
      'b edit refs 7 none',
      'c upscale ×2,4 none',
      'c fill white-edit',
    ]);
  });
});
