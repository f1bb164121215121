#!/bin/bash
# The deb's and rpm's after-remove script: electron-builder 26.17's own template
# (app-builder-lib/templates/linux/after-remove.tpl), changed in two places: the alternative it
# removes is the command wrapper bin/${executable} that after-install.tpl registered, and it acts
# only when the package goes. rpm runs an upgrade's old after-remove script after the new
# version's after-install ($1 is 1 then): removing the link there would leave the upgraded
# package with no /usr/bin/${executable}. deb calls it with "upgrade" before the new one's.

case "$1" in
  0 | remove | purge) ;;
  *) exit 0 ;;
esac

# Delete the link to the command
# update-alternatives --remove <name> <path>: 'path' must be the registered alternative,
# not the generic symlink — see https://man7.org/linux/man-pages/man1/update-alternatives.1.html
if type update-alternatives >/dev/null 2>&1; then
    update-alternatives --remove '${executable}' '/opt/${sanitizedProductName}/bin/${executable}'
else
    rm -f '/usr/bin/${executable}'
fi

APPARMOR_PROFILE_DEST='/etc/apparmor.d/${executable}'

# Remove and unload apparmor profile.
if [ -f "$APPARMOR_PROFILE_DEST" ]; then
  # Unload the profile from the running kernel before deleting the file so the
  # policy is not left enforced until the next reboot.  Mirror the chroot guard
  # used in the after-install script — live AppArmor operations are not
  # meaningful inside a chroot.
  # https://wiki.debian.org/AppArmor/HowToUse
  if apparmor_status --enabled > /dev/null 2>&1; then
    if ! { [ -x '/usr/bin/ischroot' ] && /usr/bin/ischroot; } && hash apparmor_parser 2>/dev/null; then
      apparmor_parser --remove "$APPARMOR_PROFILE_DEST" || true
    fi
  fi
  rm -f "$APPARMOR_PROFILE_DEST"
fi