/**
 * The image engine of a plain-Node host (the CLI run from a checkout or from the packed app with
 * no other engine given, tests, the bench): native sharp when it loads here, else `header-only`.
 *
 * The choice is made at the first job, not when the engine is made: loading sharp (its native
 * library, and the modules that check the platform for it) costs more CPU than a whole one-record
 * command (`pictor rate`, `pictor list`), which never decodes an image. Until a job finds that
 * sharp does not load, the engine names itself `sharp-native`, the engine it will try; from then
 * on it is `header-only` (thumbnails pending, as if chosen at the start).
 */
import type { ImageEngine } from '../../ports/image-engine';
import { createHeaderOnlyEngine } from './header-only-engine';
import { createSharpNativeEngine, sharpLoads } from './sharp-native-engine';

export function plainNodeImageEngine(): Promise<ImageEngine> {
  let chosen: ImageEngine | null = null;
  let choosing: Promise<ImageEngine> | null = null;
  const choose = (): Promise<ImageEngine> =>
    (choosing ??= sharpLoads().then(
      (loads) => (chosen = loads ? createSharpNativeEngine() : createHeaderOnlyEngine()),
    ));
  const engine: ImageEngine = {
    get name() {
      return chosen?.name ?? 'sharp-native';
    },
    thumbnail: async (request) => (await choose()).thumbnail(request),
    toPng: async (bytes, maxSide) => (await choose()).toPng(bytes, maxSide),
    renderSvgPng: async (svg, size) => (await choose()).renderSvgPng(svg, size),
    // Nothing was started before a job chose (an engine never used opens nothing).
    dispose: async () => (choosing === null ? undefined : (await choosing).dispose()),
  };
  return Promise.resolve(engine);
}
