#!/bin/sh
# The pictor command on Linux, installed as /usr/bin/pictor by the deb and rpm packages (a link
# to this file, <install folder>/bin/pictor). It starts Pictor's binary with the arguments as
# they were typed. With no display (an SSH session, a server, CI), Electron would abort with
# "Missing X server or $DISPLAY" before Pictor's own code runs: there it asks Chromium for its
# headless platform, and no GPU process (a server has no GPU, and one that fails to start there
# ends the process), so `pictor list` or `pictor self-test` work anywhere. The switches go
# before the command; Pictor's command line leaves Chromium's switches out.
set -e
self=$(readlink -f -- "$0")
app=$(dirname -- "$(dirname -- "$self")")
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  exec "$app/pictor" --ozone-platform=headless --disable-gpu "$@"
fi
exec "$app/pictor" "$@"
