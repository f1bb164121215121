/**
 * The lineage module's face (electron/core/lineage/): its doors are the exports below, the only
 * names other modules and the fronts import from it. What an image was made from and what was made
 * from it: `imageStack` (its original, by parents walked up, and every image made from it, walked
 * down through the history's lineage index; cycles, depth and fan-out bounded).
 */
export { imageStack, type StackHistory } from './image-stack';
