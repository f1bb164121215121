/**
 * The lineage module (electron/core/lineage/), its face: the one file other modules and the fronts
 * import from it. What an image was made from and what was made from it: `imageStack` (its
 * original, by parents walked up, and every image made from it, walked down through the history's
 * lineage index; cycles, depth and fan-out bounded).
 */
export { imageStack, type StackHistory } from './image-stack';
