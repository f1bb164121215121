#!/bin/sh
# The pictor command on macOS: Contents/Resources/bin/pictor inside Pictor.app, which the app
# menu's "Install Command Line Tool…" links from /usr/local/bin/pictor. It starts the app's own
# binary with the arguments as they were typed, which runs Pictor's command line (no window, no
# Dock icon). The link is followed to find the bundle, wherever the app was put.
set -e
self=$0
while [ -L "$self" ]; do
  target=$(readlink -- "$self")
  case $target in
    /*) self=$target ;;
    *) self=$(dirname -- "$self")/$target ;;
  esac
done
contents=$(cd -P -- "$(dirname -- "$self")/../.." && pwd)
exec "$contents/MacOS/Pictor" "$@"
