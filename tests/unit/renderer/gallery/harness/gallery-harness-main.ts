/**
 * The gallery screenshot page: the fake API with the gallery scene behind the real renderer,
 * on the gallery. `?tasks=20000` seeds a large gallery (about 2.5 images per task) to try
 * scrolling at scale.
 */
import { startHarnessPage } from '../../harness/harness-page';
import { seedGallery } from './gallery-scene';

const harness = await startHarnessPage((fake, params) => {
  seedGallery(fake, Date.now(), Number(params.get('tasks') ?? 400));
  return 'gallery';
});
(window as unknown as { harness: unknown }).harness = harness;
