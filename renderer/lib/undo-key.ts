/** The undo key, as every screen and the viewer read it. */

/** Ctrl+Z (Cmd+Z on a Mac): undo the last delete. */
export function isUndoKey(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return (
    (event.ctrlKey || event.metaKey) &&
    !event.shiftKey &&
    !event.altKey &&
    event.key.toLowerCase() === 'z'
  );
}
