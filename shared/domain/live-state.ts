/** What the engine knows about a task that is not worth persisting (countdowns and spinners). */
import { z } from 'zod';

export const liveStateSchema = z.object({
  /** When the next poll is due, while one is scheduled. */
  nextPollAt: z.number().nullable(),
  polling: z.boolean(),
  /** Downloads running or waiting to retry. */
  downloads: z.number().int().nonnegative(),
});
export type LiveState = Readonly<z.infer<typeof liveStateSchema>>;
