/**
 * The seed a dialect's answer says it made a task with: the one its submit asked for (fal's and
 * BFL's `seed`), as their services answer it, or else the demo's own drawn from the task id.
 */
import { readSeed } from '../../../shared/service/service-seed';
import { taskSeed } from '../prng';
import type { StoredTask } from '../task-store';
import { objectOf, type DialectKit } from './dialect';

export function askedSeed(kit: DialectKit, task: StoredTask): number {
  return readSeed(objectOf(kit.input(task))?.['seed']) ?? taskSeed(kit.ctx.options.seed, task.id);
}
