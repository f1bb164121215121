/**
 * One slow link for the bench: image bytes, from every service that shares the returned pacing
 * (DemoServiceOptions.imagePacing), cross it no faster than `bytesPerSecond` together, on the real
 * clock, as through one network link; the services' JSON answers are not held back.
 */
export function slowLink(bytesPerSecond: number): (bytes: number) => Promise<void> {
  let nextFreeAt = 0;
  return (bytes) => {
    const now = Date.now();
    const start = Math.max(now, nextFreeAt);
    nextFreeAt = start + (bytes / bytesPerSecond) * 1000;
    const wait = nextFreeAt - now;
    return wait <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, wait));
  };
}
