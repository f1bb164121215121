/**
 * `npm run reliability`: puts the figures the hardening suites recorded in their last run
 * (test-results/reliability/*.json) into docs/reliability/figures.json, each replacing the same
 * row's earlier record (rows of the other size, or of suites not run this time, stay as they
 * were recorded), then writes the figures region of docs/RELIABILITY.md from that file. Nothing
 * outside the region's markers is touched.
 *
 *   npx vitest run --project 'hardening*' && npm run reliability
 *   npm run soak                           (runs the suites at the larger size, then this)
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  FIGURES_FILE,
  RELIABILITY_PAGE,
  figureSchema,
  figuresText,
  mergeFigures,
  readCommittedFigures,
  renderFigures,
  withFigures,
  type Figure,
} from './support/reliability-page';
import { RELIABILITY_DIR } from './support/reliability-record';
import { REPO_ROOT } from '../support/source-files';

function readRecorded(): Figure[] {
  if (!existsSync(RELIABILITY_DIR)) return [];
  return readdirSync(RELIABILITY_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) =>
      figureSchema.parse(JSON.parse(readFileSync(join(RELIABILITY_DIR, name), 'utf8'))),
    );
}

const fresh = readRecorded();
const figures = mergeFigures(readCommittedFigures(), fresh, (file) =>
  existsSync(join(REPO_ROOT, file)),
);
mkdirSync(dirname(FIGURES_FILE), { recursive: true });
writeFileSync(FIGURES_FILE, figuresText(figures));
writeFileSync(
  RELIABILITY_PAGE,
  withFigures(readFileSync(RELIABILITY_PAGE, 'utf8'), renderFigures(figures)),
);
console.log(
  `reliability: ${fresh.length} rows recorded in the last run, ${figures.length} in ` +
    'docs/reliability/figures.json → docs/RELIABILITY.md',
);
