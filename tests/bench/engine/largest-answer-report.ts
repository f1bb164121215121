/**
 * What the "Largest answer" row's child process (largest-answer-child.ts) prints, and its shape
 * names: apart from the child, whose module runs the child's work when it is loaded.
 */
export interface LargestAnswerReport {
  readonly shape: string;
  /** Bytes of the answer's body. */
  readonly bytes: number;
  /** The main thread's longest stall while the answer was read, ms. */
  readonly stallMs: number;
  /** RSS before (after a GC), and its peak while reading, bytes. */
  readonly baselineRss: number;
  readonly peakRss: number;
  /** The kernel's high-water mark after resetting it at the baseline; null where unsupported. */
  readonly highWaterRss: number | null;
  readonly wallMs: number;
  /** What the answer was: its status and images, or the sentence it was refused with. */
  readonly outcome: string;
}

/** A shape read by the fetch alone (the control): its body taken and dropped, nothing parsed. */
export const FETCH_ONLY = 'fetch-only:';
