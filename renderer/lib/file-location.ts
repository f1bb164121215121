/** A path the main process reported, named as people name files: the file and its folder. */
export interface FileLocation {
  readonly file: string;
  readonly folder: string;
}

/** The file name and its folder's name in `path` (either separator: the OS decides, not the page). */
export function fileLocation(path: string): FileLocation {
  const parts = path.split(/[\\/]+/).filter((part) => part !== '');
  const file = parts.at(-1) ?? path;
  const folder = parts.at(-2) ?? (/^[\\/]/.test(path) ? '/' : '');
  return { file, folder };
}
