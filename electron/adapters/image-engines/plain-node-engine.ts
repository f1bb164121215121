/**
 * The image engine of a plain-Node host (the CLI run from a checkout or from the packed app with
 * no other engine given, tests, the bench): native sharp when it loads here, else `header-only`.
 */
import type { ImageEngine } from '../../ports/image-engine';
import { createHeaderOnlyEngine } from './header-only-engine';
import { createSharpNativeEngine, sharpLoads } from './sharp-native-engine';

export async function plainNodeImageEngine(): Promise<ImageEngine> {
  return (await sharpLoads()) ? createSharpNativeEngine() : createHeaderOnlyEngine();
}
