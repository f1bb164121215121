/**
 * How a "Cancel on the service" went (electron/core/batch/cancel-tasks.ts), as the window and the
 * CLI tell it:
 * - `canceled`: the task ended canceled on the service;
 * - `stopping`: the service took the request and the task has not ended yet;
 * - `finished`: it ended otherwise first (a completed task keeps its images);
 * - `refused`: the service said no, or could not be reached (its reason goes with it);
 * - `unsupported`: its service has no cancel ("Stop watching" is offered instead);
 * - `not_running`: nothing to cancel (the task ended, is unknown, or has no service id yet);
 * - `not_asked`: Pictor could not ask (no key for the task's service).
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

const CANCEL_OUTCOMES = [
  'canceled',
  'stopping',
  'finished',
  'refused',
  'unsupported',
  'not_running',
  'not_asked',
] as const;
/** Built on first use (lazy-schema.ts). */
export const cancelOutcomeKindSchema = lazySchema(() => z.enum(CANCEL_OUTCOMES));
export type CancelOutcomeKind = (typeof CANCEL_OUTCOMES)[number];
