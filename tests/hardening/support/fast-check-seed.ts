/**
 * Setup of the `hardening` project: under `npm test` every fast-check property runs from one
 * fixed seed, so the test command gives the same answer on every run and machine; `npm run soak`
 * draws a fresh seed each run, to keep finding new inputs. PICTOR_FC_SEED replays a seed.
 */
import fc from 'fast-check';
import { SOAK } from './scale';

const FIXED_SEED = 20_261_121;
const chosen = process.env['PICTOR_FC_SEED'];
const seed = chosen !== undefined ? Number(chosen) : SOAK ? undefined : FIXED_SEED;
if (seed !== undefined) fc.configureGlobal({ seed });
