/** What the engine knows about a task that is not worth persisting (countdowns and spinners). */
import { z } from 'zod';
import { MAX_QUEUE_POSITION, MAX_RUNNING_AT_LIMIT } from './limits';
import { lazySchema } from './lazy-schema';

/** Built on first use (lazy-schema.ts): loading the module (main's IPC contract does) builds none. */
export const liveStateSchema = lazySchema(() =>
  z.object({
    /** When the next poll is due, while one is scheduled. */
    nextPollAt: z.number().nullable(),
    polling: z.boolean(),
    /** Downloads running or waiting to retry. */
    downloads: z.number().int().nonnegative(),
    /** Percent done (0–100) as the service last said, for a processing task whose service says. */
    progress: z.number().int().min(0).max(100).optional(),
    /**
     * Tasks ahead of it in the service's queue (0: it is next), as the service last said, for a
     * task still waiting there whose service says.
     */
    queuePosition: z.number().int().min(0).max(MAX_QUEUE_POSITION).optional(),
    /**
     * For a task not yet sent because its service already runs as many of its key's tasks as it
     * allows at once (BFL: 24): how many run there, while it waits for one to end.
     */
    runningAtLimit: z.number().int().min(0).max(MAX_RUNNING_AT_LIMIT).optional(),
  }),
);
export type LiveState = Readonly<z.infer<ReturnType<typeof liveStateSchema>>>;
