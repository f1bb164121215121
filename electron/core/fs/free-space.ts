/** How much room a folder's disk has left, read through a function a test can replace. */
import { statfs } from 'node:fs/promises';

/** Bytes an unprivileged writer may still use on the file system that holds `folder`. */
export type FreeSpace = (folder: string) => Promise<number>;

/** {@link FreeSpace} from the operating system (`statfs`: available blocks × block size). */
export const diskFreeBytes: FreeSpace = async (folder) => {
  const info = await statfs(folder, { bigint: true });
  return Number(info.bavail * info.bsize);
};
