#!/bin/sh
# The pictor command on Linux, installed as /usr/bin/pictor by the deb and rpm packages (a link
# to this file, <install folder>/bin/pictor). It starts Pictor's binary with the arguments as
# they were typed. With no display (an SSH session, a server, CI), Electron would abort with
# "Missing X server or $DISPLAY" before Pictor's own code runs: there it asks Chromium for its
# headless platform, and no GPU process (a server has no GPU, and one that fails to start there
# ends the process), so `pictor list` or `pictor self-test` work anywhere. The switches go
# before the command; Pictor's command line leaves Chromium's switches out.
#
# The keys (SERVICE_API_KEY, every PICTOR_KEY_*) never reach the binary's environment: on Linux
# Chromium forks its renderers (the hidden image renderer decodes images from hosts Pictor does
# not trust) from a zygote started before any of Pictor's code, and each keeps the environment it
# was started with. They go to the binary through an anonymous pipe on its fd 3 instead, as
# NAME NUL VALUE NUL records (electron/cli/key-pipe.ts reads them), PICTOR_KEYS_FD=3 saying so.
# printf is the shell's own, so no value is on any command line; no here-document, which bash
# may write to a temporary file. The shell then stays the binary's parent, and passes its exit
# code on. With no key variable the binary replaces the shell, as it always did.
set -e
self=$(readlink -f -- "$0")
app=$(dirname -- "$(dirname -- "$self")")
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  set -- --ozone-platform=headless --disable-gpu "$@"
fi

# The key variables' names, each once: `export -p` lists every exported variable, one per line
# unless a value spans lines, so a name is kept only if it is a key variable's, made of the
# characters a shell name allows, and set.
names=
newline='
'
set -f
IFS=$newline
for line in $(export -p); do
  line=${line#export }
  line=${line#declare -* }
  name=${line%%=*}
  case $name in
    SERVICE_API_KEY | PICTOR_KEY_?*) ;;
    *) continue ;;
  esac
  case $name in *[!A-Za-z0-9_]*) continue ;; esac
  eval "[ -n \"\${$name+set}\" ]" || continue
  case " $names " in *" $name "*) continue ;; esac
  names="$names $name"
done
IFS=' 	
'
set +f

if [ -z "$names" ]; then
  exec "$app/pictor" "$@"
fi

records() {
  for name in $names; do
    eval "value=\${$name}"
    printf '%s\0%s\0' "$name" "$value"
  done
}

# fd 4 keeps the caller's stdin for the binary while the pipe arrives on fd 0, which then becomes fd 3.
{
  records 4<&- | {
    exec 3<&0 0<&4 4<&-
    unset $names
    PICTOR_KEYS_FD=3
    export PICTOR_KEYS_FD
    exec "$app/pictor" "$@"
  }
} 4<&0
