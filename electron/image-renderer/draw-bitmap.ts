/**
 * How the page and its workers draw a decoded image before encoding it: onto the canvas they keep
 * for its size, with a 2d context, not handed over to a 'bitmaprenderer' one (Chromium 156 encodes
 * a transferred bitmap of an EXIF-rotated image unrotated: a 300×400 image became a 400×300 WebP).
 */

/** A canvas and the context it is drawn with. */
interface Drawable<C> {
  readonly canvas: C;
  readonly context: { drawImage(image: ImageBitmap, dx: number, dy: number): void };
}

/** The canvas `canvasOf` gives for `bitmap`'s size, `bitmap` drawn on it; `bitmap` is closed. */
export function drawnOn<C>(
  bitmap: ImageBitmap,
  canvasOf: (width: number, height: number) => Drawable<C>,
): C {
  try {
    const made = canvasOf(bitmap.width, bitmap.height);
    made.context.drawImage(bitmap, 0, 0);
    return made.canvas;
  } finally {
    bitmap.close();
  }
}
