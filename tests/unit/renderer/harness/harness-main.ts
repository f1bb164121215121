/**
 * The screenshot page: the fake API seeded with a scene (from `?scene=&theme=`) behind the real
 * renderer.
 */
import { startHarnessPage } from './harness-page';
import { seedScene, type SceneName } from './scenes';

const scene = (new URLSearchParams(location.search).get('scene') ?? 'tasks') as SceneName;
const { fake, store } = await startHarnessPage((seeded) => seedScene(seeded, scene));
if (scene === 'task-details') {
  setTimeout(() => store.getState().tasksOpenDetails('seed-000003'), 300);
}
if (scene === 'settings-consent') {
  (window as unknown as { harnessFake: unknown }).harnessFake = fake;
}
