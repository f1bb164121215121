; Pictor's additions to electron-builder's NSIS installer (electron-builder.yml nsis.include).
;
; The pictor command: the installer puts <install folder>\bin (which holds pictor.cmd and nothing
; else) on the user's PATH, and the uninstaller takes it off again. Not the install folder
; itself: there Pictor.exe would answer to "pictor" before pictor.cmd (PATHEXT lists .EXE before
; .CMD), and a windowed program typed at a prompt neither waits nor gives its exit code back.
;
; The user's Path is read and written as stored (REG_EXPAND_SZ, %VARIABLES% unexpanded), by
; PowerShell rather than NSIS strings, which would cut a long Path at NSIS_MAX_STRLEN and lose
; the rest. The folder goes in through an environment variable, never spliced into the script.
; An update runs the old uninstaller first: the entry stays, the new installer keeps it.

!include "WinMessages.nsh"

!define PICTOR_POWERSHELL '"$SYSDIR\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command'
; Every entry of the user's Path but Pictor's (compared without a trailing backslash), kept in order.
!define PICTOR_PATH_OTHERS "$$key = [Microsoft.Win32.Registry]::CurrentUser.CreateSubKey('Environment'); $$old = [string]$$key.GetValue('Path', '', 'DoNotExpandEnvironmentNames'); $$dir = $$env:PICTOR_BIN.TrimEnd('\'); $$others = @($$old -split ';' | Where-Object { $$_ -ne '' -and $$_.TrimEnd('\') -ne $$dir })"

!macro pictorSetBinDir
  System::Call 'Kernel32::SetEnvironmentVariable(t "PICTOR_BIN", t "$INSTDIR\bin") i'
!macroend

!macro pictorPathChanged
  ; Open windows (Explorer, new terminals) read the new Path without signing out.
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
!macroend

!macro customInstall
  !insertmacro pictorSetBinDir
  nsExec::ExecToLog `${PICTOR_POWERSHELL} "${PICTOR_PATH_OTHERS}; $$key.SetValue('Path', (($$others + $$dir) -join ';'), 'ExpandString')"`
  Pop $0
  ${if} $0 != 0
    DetailPrint "Could not add $INSTDIR\bin to PATH (exit $0): add it yourself to type pictor."
  ${endIf}
  !insertmacro pictorPathChanged
!macroend

!macro customUnInstall
  ${ifNot} ${isUpdated}
    !insertmacro pictorSetBinDir
    nsExec::ExecToLog `${PICTOR_POWERSHELL} "${PICTOR_PATH_OTHERS}; $$key.SetValue('Path', ($$others -join ';'), 'ExpandString')"`
    Pop $0
    !insertmacro pictorPathChanged
  ${endIf}
!macroend
