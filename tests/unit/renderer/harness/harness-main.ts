/**
 * The screenshot page: installs the fake API seeded with a scene (from `?scene=&theme=`), shows
 * gallery images from plain HTTP instead of the app's protocol, then starts the real renderer.
 */
import { installFakeApi } from '../../../fakes/fake-pictor-api';
import { seedScene, type SceneName } from './scenes';

const params = new URLSearchParams(location.search);
const scene = (params.get('scene') ?? 'tasks') as SceneName;
const theme = params.get('theme') === 'dark' ? 'dark' : 'light';

const fake = installFakeApi();
const view = seedScene(fake, scene);
fake.settings = { ...fake.settings, theme };

// The app loads images through pictor-gallery://, which only Electron serves.
const rewrite = (image: HTMLImageElement): void => {
  const source = image.getAttribute('src') ?? '';
  if (source.startsWith('pictor-gallery://gallery/')) {
    image.setAttribute('src', `./gallery/${source.slice('pictor-gallery://gallery/'.length)}`);
  }
};
new MutationObserver((records) => {
  for (const record of records) {
    if (record.target instanceof HTMLImageElement) rewrite(record.target);
    for (const node of record.addedNodes) {
      if (node instanceof HTMLElement) node.querySelectorAll('img').forEach(rewrite);
      if (node instanceof HTMLImageElement) rewrite(node);
    }
  }
}).observe(document, {
  subtree: true,
  childList: true,
  attributes: true,
  attributeFilter: ['src'],
});

await import('../../../../renderer/main');
const { useAppStore } = await import('../../../../renderer/store');
useAppStore.getState().setView(view);
if (scene === 'task-details') {
  setTimeout(() => useAppStore.getState().tasksOpenDetails('seed-000003'), 300);
}
if (scene === 'settings-consent') {
  (window as unknown as { harnessFake: unknown }).harnessFake = fake;
}
