/**
 * The NSIS script electron-builder would compile around resources/windows/installer.nsh
 * (electron-builder.yml `nsis.include`), reduced to what this machine's makensis (Debian's
 * `nsis`) can compile: the common header made by electron-builder's own generator
 * (app-builder-lib NsisTarget.computeCommonInstallerScriptHeader: StdUtils.nsh, its include
 * folder, the command-line flags `${isUpdated}`…, then the custom include), an install section
 * and an uninstall section that insert the include's macros where electron-builder's templates
 * do (installSection.nsh: customInstall; uninstaller.nsh: customUnInstall; installer.nsi:
 * customHeader, preInit, customInit…), and makensis run as electron-builder runs it (`-WX`:
 * a warning fails; UTF-8 input; the script on stdin; from the templates folder). Two things
 * stand in: the StdUtils plugin, which Debian does not ship (its TestParameter, which the flags
 * call, becomes NSIS's own GetParameters/GetOptions), and the app's files (one placeholder).
 * electron-builder itself is not run: on Linux it builds the uninstaller by running the
 * installer under Wine, and needs plugins (UAC, nsProcess, StdUtils) and elevate.exe that only
 * its downloaded NSIS bundle has.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { NsisScriptGenerator } from 'app-builder-lib/out/targets/nsis/nsisScriptGenerator';

const require = createRequire(import.meta.url);
/** electron-builder's NSIS templates (the folder makensis runs in). */
export const NSIS_TEMPLATES = path.join(
  path.dirname(require.resolve('app-builder-lib/package.json')),
  'templates',
  'nsis',
);

/** The flags electron-builder's header defines (`${isUpdated}`, `${isForceRun}`…). */
const FLAGS = [
  'updated',
  'force-run',
  'keep-shortcuts',
  'no-desktop-shortcut',
  'delete-app-data',
  'allusers',
  'currentuser',
];

/** StdUtils::TestParameter in NSIS's own words: whether /name or --name was given. */
const TEST_PARAMETER_STAND_IN = `!include "FileFunc.nsh"
!undef StdUtils.TestParameter
!define StdUtils.TestParameter '!insertmacro PictorTestParameter'
!macro PictorTestParameter out name
  Push $R8
  \${GetParameters} $R8
  ClearErrors
  \${GetOptions} $R8 "--\${name}" $R8
  Pop $R8
  \${If} \${Errors}
    StrCpy \${out} "false"
  \${Else}
    StrCpy \${out} "true"
  \${EndIf}
!macroend
`;

/** Inserts `name` where electron-builder's templates do: only when the include defines it. */
const hook = (name: string): string => `!ifmacrodef ${name}\n  !insertmacro ${name}\n!endif`;

/** Stops the compile when the include does not define `name`. */
const required = (name: string): string =>
  `!ifmacrondef ${name}\n  !error "the custom include defines no ${name} macro"\n!endif`;

/**
 * The whole script for the custom include at `include`, its one app file `payload`; the
 * compile fails when the include lacks one of the macros `requires` names.
 */
export function nsisScript(
  include: string,
  payload: string,
  requires: readonly string[] = [],
): string {
  const header = new NsisScriptGenerator();
  header.include(path.join(NSIS_TEMPLATES, 'include', 'StdUtils.nsh'));
  header.addIncludeDir(path.join(NSIS_TEMPLATES, 'include'));
  const flags = new NsisScriptGenerator();
  flags.flags(FLAGS);
  const custom = new NsisScriptGenerator();
  custom.addIncludeDir(path.dirname(include));
  custom.include(include);
  return [
    '!include "LogicLib.nsh"',
    header.build(),
    TEST_PARAMETER_STAND_IN,
    flags.build(),
    custom.build(),
    ...requires.map(required),
    'Name "Pictor"',
    'InstallDir "$LOCALAPPDATA\\Programs\\Pictor"',
    'RequestExecutionLevel user',
    hook('customHeader'),
    'Function .onInit',
    hook('preInit'),
    hook('customInit'),
    'FunctionEnd',
    'Section "install"',
    '  SetOutPath $INSTDIR',
    `  File "/oname=Pictor.exe" "${payload}"`,
    hook('customInstall'),
    '  WriteUninstaller "$INSTDIR\\Uninstall Pictor.exe"',
    'SectionEnd',
    'Function un.onInit',
    hook('customUnInit'),
    'FunctionEnd',
    'Section "un.install"',
    hook('customRemoveFiles'),
    hook('customUnInstall'),
    '  Delete "$INSTDIR\\Pictor.exe"',
    '  Delete "$INSTDIR\\Uninstall Pictor.exe"',
    '  RMDir $INSTDIR',
    'SectionEnd',
    '',
  ].join('\n');
}

/** makensis run on `script` as electron-builder runs it; its exit code and output. */
export function compileNsis(
  makensis: string,
  script: string,
  outFile: string,
): { code: number | null; output: string } {
  const result = spawnSync(
    makensis,
    ['-WX', '-INPUTCHARSET', 'UTF8', '-XUnicode true', `-XOutFile "${outFile}"`, '-'],
    { cwd: NSIS_TEMPLATES, input: script, encoding: 'utf8' },
  );
  return {
    code: result.status,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`,
  };
}
