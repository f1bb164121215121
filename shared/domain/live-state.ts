/** What the engine knows about a task that is not worth persisting (countdowns and spinners). */
import { z } from 'zod';

export const liveStateSchema = z.object({
  /** When the next poll is due, while one is scheduled. */
  nextPollAt: z.number().nullable(),
  polling: z.boolean(),
  /** Downloads running or waiting to retry. */
  downloads: z.number().int().nonnegative(),
  /** Percent done (0–100) as the service last said, for a processing task whose service says. */
  progress: z.number().int().min(0).max(100).optional(),
});
export type LiveState = Readonly<z.infer<typeof liveStateSchema>>;
