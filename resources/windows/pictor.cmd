@echo off
rem The pictor command on Windows. Pictor.exe is a windowed (GUI) program: started from
rem cmd.exe or PowerShell it prints to the console it was started from, but the shell does
rem not wait for it and drops its exit code. This waits, in the same console, and passes
rem the exit code on. Add this folder to PATH to type "pictor list".
start "" /b /wait "%~dp0Pictor.exe" %*
exit /b %ERRORLEVEL%
