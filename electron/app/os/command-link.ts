/**
 * Where macOS's "Install Command Line Tool…" puts its link (command-line-tool.ts): on every macOS
 * PATH, writable by administrators. A module of its own so that what only needs the path (the
 * packaged-app scripts' dry runs, tests/e2e/packaged/installed-app.ts) loads nothing else.
 */
export const COMMAND_LINK = '/usr/local/bin/pictor';
