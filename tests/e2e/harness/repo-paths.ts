/**
 * Where the end-to-end harness finds the repository: the tests' one repository root
 * (tests/support/source-files.ts). The built app is not here: it is the run's test build, in a
 * temporary folder (tests/support/test-build.ts).
 */
export { REPO_ROOT } from '../../support/source-files';
