/**
 * The image engine of the tests' cores, galleries and app runtimes: native sharp, as every
 * plain-Node host uses (adapters/image-engines). One per process; it holds nothing to dispose.
 */
import { createSharpNativeEngine } from '../../electron/adapters/image-engines/sharp-native-engine';

export const testImageEngine = createSharpNativeEngine();
