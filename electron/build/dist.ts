/**
 * `npm run dist` after the build: electron-builder for this OS (arguments after `--` go to it:
 * `npm run dist -- --mac --arm64`), with the update feed release-feed.ts decides. Exits 1 before
 * packing anything when that feed is missing from a release build or is a placeholder.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { builderArgs, decideFeed } from './release-feed';

const args = process.argv.slice(2);
const decision = decideFeed(process.env, args);
if (!decision.ok) {
  console.error(`dist: ${decision.problem}`);
  process.exit(1);
}
console.log(
  decision.feed
    ? `dist: update feed ${decision.feed}`
    : 'dist: no update feed (set PICTOR_UPDATE_FEED for a release): this build never checks for updates',
);
const builder = join(
  dirname(createRequire(import.meta.url).resolve('electron-builder/package.json')),
  'cli.js',
);
const result = spawnSync(process.execPath, [builder, ...builderArgs(decision, args)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
