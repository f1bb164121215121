/**
 * The gallery screenshot page: installs the fake API with the gallery scene, shows gallery
 * images from plain HTTP instead of the app's protocol, starts the real renderer on the gallery,
 * and opens the viewer when the URL says `viewer=1`.
 */
import { installFakeApi } from '../../../../fakes/fake-pictor-api';
import { seedGallery } from './gallery-scene';

const params = new URLSearchParams(location.search);
const theme = params.get('theme') === 'dark' ? 'dark' : 'light';

const fake = installFakeApi();
// `?tasks=20000` seeds a large gallery (about 2.5 images per task) to try scrolling at scale.
seedGallery(fake, Date.now(), Number(params.get('tasks') ?? 400));
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

await import('../../../../../renderer/main');
const { useAppStore } = await import('../../../../../renderer/store');
useAppStore.getState().setView('gallery');
(window as unknown as { harness: unknown }).harness = { store: useAppStore, fake };
