/**
 * `npm run ci:fedora-rpm`: the rpm from release/ installed with dnf in a stock Fedora container
 * (its dependencies from Fedora's repositories), then `pictor help` and `pictor self-test` run
 * there as root with no display (`--no-sandbox`: Chromium refuses to run as root otherwise; a
 * user's machine never needs it), then the rpm removed with dnf, which must take /usr/bin/pictor
 * with it. Before the commands it is reinstalled, which rpm runs as an upgrade (the old
 * after-remove after the new after-install): the link must still be there. Needs docker
 * (GitHub's Ubuntu runners have it). The image is a pinned release (fedora-support.ts;
 * PICTOR_FEDORA_IMAGE picks another), and the leg fails once that release has left support, as
 * its own /etc/os-release says, before dnf finds its repositories gone to the archive. The CI rpm
 * is unsigned: dnf is told so (`--nogpgcheck`), as a user installing a downloaded rpm would.
 * A dry run (PICTOR_CI_DRY=1) finds the rpm and says what it would run in which image.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ciArgsOrExit } from '../../../electron/build/ci-args.mjs';
import { ciContext, skippedLine } from '../../../electron/build/ci-context';
import { FEDORA_IMAGE, fedoraSupport } from './fedora-support';
import { checkHelp, checkSelfTest } from './installed-app';

ciArgsOrExit(
  { name: 'ci:fedora-rpm', usage: 'npm run ci:fedora-rpm', options: {} },
  process.argv.slice(2),
);
const CONTEXT = ciContext('ci:fedora-rpm');
const RELEASE = path.join(CONTEXT.root, 'release');
const IMAGE = process.env['PICTOR_FEDORA_IMAGE'] ?? FEDORA_IMAGE;

const rpms = readdirSync(RELEASE).filter((file) => file.endsWith('.rpm'));
if (rpms.length !== 1) {
  console.error(
    `fedora-rpm: expected one rpm in release/, found ${rpms.length}. Run \`npm run dist\` first.`,
  );
  process.exit(1);
}
// Each marker line splits the container's output; the two commands' outputs are checked apart.
const script = [
  'set -u',
  '. /etc/os-release; echo "fedora-rpm: $PRETTY_NAME" >&2',
  'echo "@@os-release"; cat /etc/os-release; echo "@@os-release-end"',
  `dnf install -y --nogpgcheck --setopt=install_weak_deps=False /release/${rpms[0]} >/dev/null`,
  'test "$(readlink -f /usr/bin/pictor)" = /opt/Pictor/bin/pictor || { echo "/usr/bin/pictor is not the wrapper"; exit 1; }',
  // A reinstall runs as an upgrade does: the new after-install, then the old after-remove ($1=1).
  `dnf reinstall -y --nogpgcheck /release/${rpms[0]} >/dev/null || { echo "dnf reinstall failed"; exit 1; }`,
  'test "$(readlink -f /usr/bin/pictor)" = /opt/Pictor/bin/pictor || { echo "/usr/bin/pictor did not survive an upgrade"; exit 1; }',
  'pictor --no-sandbox help; echo "@@help-exit $?"',
  'echo "@@self-test"',
  'pictor --no-sandbox self-test; echo "@@self-test-exit $?"',
  'dnf remove -y pictor >/dev/null || { echo "dnf remove failed"; exit 1; }',
  'if [ -e /usr/bin/pictor ] || [ -L /usr/bin/pictor ]; then echo "/usr/bin/pictor outlived the rpm"; exit 1; fi',
].join('\n');
console.log(`fedora-rpm: ${rpms[0]} in ${IMAGE}`);
if (CONTEXT.dry) {
  console.log(
    skippedLine(
      'ci:fedora-rpm',
      `docker run ${IMAGE}: dnf install, reinstall, pictor help, pictor self-test, dnf remove`,
      'a dry run starts no container: the stand-in rpm holds no app',
    ),
  );
  process.exit(0);
}
const result = spawnSync(
  'docker',
  ['run', '--rm', '-v', `${RELEASE}:/release:ro`, IMAGE, 'bash', '-c', script],
  {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const full = result.stdout ?? '';
const osRelease = /@@os-release\n([\s\S]*?)@@os-release-end\n/.exec(full);
const out = osRelease ? full.replace(osRelease[0], '') : full;
const help = /^([\s\S]*)@@help-exit (\d+)$/m.exec(out);
const selfTest = /@@self-test\n([\s\S]*)@@self-test-exit (\d+)$/m.exec(out);
const verdicts = [
  fedoraSupport(osRelease?.[1] ?? '', new Date()),
  help
    ? checkHelp(Number(help[2]), help[1] ?? '')
    : { ok: false as const, problem: `no help output: ${out.slice(-2000)}` },
  selfTest
    ? checkSelfTest(Number(selfTest[2]), selfTest[1] ?? '')
    : { ok: false as const, problem: 'no self-test output' },
];
for (const verdict of verdicts)
  console.log(`fedora-rpm: ${verdict.ok ? verdict.line : `FAILED: ${verdict.problem}`}`);
// What the script printed after self-test: why the install or the removal went wrong, if it did.
const rest = selfTest ? out.slice(out.indexOf('@@self-test-exit')).split('\n').slice(1) : [];
console.log(
  result.status === 0
    ? 'fedora-rpm: dnf remove took /usr/bin/pictor with it'
    : `fedora-rpm: FAILED: the container exited ${String(result.status)}: ${rest.join(' ').trim() || out.slice(-500)}`,
);
process.exitCode = result.status === 0 && verdicts.every((verdict) => verdict.ok) ? 0 : 1;
