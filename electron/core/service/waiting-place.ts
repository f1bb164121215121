/**
 * Two steps of a poll for a service whose history answer says little (ComfyUI): the place its
 * queue gives a waiting task (ProviderProfile.queue), and image links it lists relative to its
 * own address (`/view?…`), made absolute against that address before the download's URL checks
 * see them. Images never carry the key, wherever they are.
 */
import type { ServiceTask } from '../../../shared/service/wire';
import { isWholeNumberIn } from '../../../shared/domain/limits';
import type { QueuePlace } from './providers/provider-profile';

/** The most tasks ahead Pictor keeps (docs/SERVICE.md: a place up to 1,000,000). */
const MOST_AHEAD = 1_000_000;

/** Whether `task` waits in a way its queue can say more of. */
export function waitsInQueue(task: ServiceTask): boolean {
  return task.status === 'processing' && task.phase === 'queued';
}

/** `task` with the queue's word: running now, or `ahead` tasks before it. */
export function placed<T extends ServiceTask>(task: T, place: QueuePlace | undefined): T {
  if (place === undefined || task.status !== 'processing') return task;
  if ('running' in place) {
    const { phase: _phase, queuePosition: _ahead, ...running } = task;
    return running as T;
  }
  if (!isWholeNumberIn({ min: 0, max: MOST_AHEAD }, place.ahead)) return task;
  return { ...task, queuePosition: place.ahead };
}

/** `task`'s image links, a root-relative one (`/view?…`) made absolute under `baseUrl`. */
export function atAddress<T extends ServiceTask>(task: T, baseUrl: string): T {
  if (task.status !== 'completed') return task;
  const origin = baseUrl.replace(/\/+$/, '');
  const imageUrls = task.imageUrls.map((url) =>
    url !== null && url.startsWith('/') && !url.startsWith('//') ? `${origin}${url}` : url,
  );
  return { ...task, imageUrls };
}
