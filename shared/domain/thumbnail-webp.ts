/**
 * The WebP quality (libwebp's 0–100) of every thumbnail Pictor makes, whichever engine makes it:
 * the app's image page (electron/image-renderer, through shared/image-renderer/protocol.ts) and the
 * sharp-native engine of plain-Node hosts (the CLI from a checkout, tests, the bench). One value,
 * so a library's thumbnails look and weigh the same whichever host made them; each engine chooses
 * only its effort (libwebp's method), which changes the time spent, not the quality asked for.
 */
export const THUMBNAIL_WEBP_QUALITY = 82;
