@echo off
rem The pictor command on Windows. Pictor.exe is a windowed (GUI) program: typed at a cmd.exe or
rem PowerShell prompt it prints to that console, but the shell neither waits for it nor keeps its
rem exit code. A batch file waits for the programs it runs, GUI ones included, in the same console
rem (so Ctrl+C reaches it), and keeps the exit code. Add this folder to PATH to type "pictor list".
"%~dp0Pictor.exe" %*
exit /b %ERRORLEVEL%
