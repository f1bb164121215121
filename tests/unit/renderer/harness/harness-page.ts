/**
 * The browser side shared by the screenshot pages: the fake API in place of the preload, in the
 * theme the URL asks for (`?theme=dark`), its gallery files fetched from the page's own server,
 * then the real renderer started on a view.
 */
import type { View } from '../../../../renderer/store/ui-slice';
import type { useAppStore } from '../../../../renderer/store/app-store';
import { installFakeApi, type FakePictorApi } from '../../../fakes/fake-pictor-api';

/** What a page has once the renderer runs: the fake behind it and the app's store. */
export interface HarnessPage {
  readonly fake: FakePictorApi;
  readonly store: typeof useAppStore;
}

/**
 * Installs the fake API, lets `seed` fill it (from the URL's query) and name the view to show,
 * then starts the renderer, which must not load before the fake is in place.
 */
export async function startHarnessPage(
  seed: (fake: FakePictorApi, params: URLSearchParams) => View,
): Promise<HarnessPage> {
  const params = new URLSearchParams(location.search);
  const fake = installFakeApi();
  const view = seed(fake, params);
  fake.settings = { ...fake.settings, theme: params.get('theme') === 'dark' ? 'dark' : 'light' };
  // Only Electron serves pictor-gallery://; the screenshot script serves the files at ./gallery/.
  fake.galleryBase = new URL('gallery/', location.href).href;
  await import('../../../../renderer/main');
  const { useAppStore: store } = await import('../../../../renderer/store/app-store');
  store.getState().setView(view);
  return { fake, store };
}
