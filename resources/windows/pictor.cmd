@echo off
rem The pictor command on Windows, in <install folder>\bin, which the installer puts on the user's
rem PATH (installer.nsh). Pictor.exe is a windowed (GUI) program: typed at a cmd.exe or PowerShell
rem prompt it prints to that console, but the shell neither waits for it nor keeps its exit code.
rem A batch file waits for the programs it runs, GUI ones included, in the same console (so
rem Ctrl+C reaches it), and keeps the exit code.
"%~dp0..\Pictor.exe" %*
exit /b %ERRORLEVEL%
