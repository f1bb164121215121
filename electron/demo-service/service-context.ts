/**
 * What the demo service's routes work with: its tasks, options, images and uploads. A file of its
 * own so the routes and the input files they call both take it without importing each other.
 */
import type { ImageCache } from './image-renderer';
import type { ResolvedOptions } from './options';
import type { TaskStore } from './task-store';
import type { UploadStore } from './uploads';

/** What the routes work with. */
export interface ServiceContext {
  store: TaskStore;
  options: ResolvedOptions;
  images: ImageCache;
  baseUrl: () => string;
  /** A real-time wait that the service's close cuts short (resolving false). */
  wait: (ms: number) => Promise<boolean>;
  /** Files uploaded for image inputs, and the storage origin's record (uploads.ts). */
  uploads: UploadStore;
  /** The storage origin's URL (storage-server.ts). */
  storageUrl: () => string;
}
