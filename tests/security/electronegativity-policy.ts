/**
 * What the security runner excludes, and why; and what it must find in the insecure sample.
 * A check is excluded only with a reason a reviewer can verify.
 */

/** Electronegativity checks (class names) left out of every scan. */
export const EXCLUDED_CHECKS: readonly { readonly check: string; readonly reason: string }[] = [
  {
    check: 'AvailableSecurityFixesGlobalCheck',
    reason:
      "Downloads Electron's release list from GitHub on every run: the test command must not need the network. Electron's version is pinned in package.json and moves with npm updates.",
  },
  {
    check: 'CSPGlobalCheck',
    reason:
      'It only sees a CSP written as a string literal in a webRequest callback or an HTML <meta>; Pictor sends RENDERER_CSP (electron/app/protocol/csp.ts) as a header from its app protocol, so this check would always report "no CSP". The runner evaluates RENDERER_CSP itself with the evaluator this check uses (@doyensec/csp-evaluator), and unit tests check the header is sent.',
  },
];

/**
 * Notes the CSP evaluator raises on RENDERER_CSP that were reviewed and accepted. Anything else
 * it raises fails the run.
 */
export const REVIEWED_CSP_NOTES: readonly { readonly note: string; readonly reason: string }[] = [
  {
    note: "script-src: 'self' can be problematic if you host JSONP, Angular or user uploaded files.",
    reason:
      "'self' is pictor-app://app, which serves only the built renderer bundle: no JSONP, no Angular, no user files (gallery images come from another scheme and are never scripts).",
  },
];

/** What Electronegativity must report in tests/security/fixtures, or the scan is not trusted. */
export const EXPECTED_SAMPLE_FINDINGS: readonly string[] = [
  'NODE_INTEGRATION_JS_CHECK',
  'CONTEXT_ISOLATION_JS_CHECK',
  'SANDBOX_JS_CHECK',
  'WEB_SECURITY_JS_CHECK',
  'INSECURE_CONTENT_JS_CHECK',
  'EXPERIMENTAL_FEATURES_JS_CHECK',
  'AUXCLICK_JS_CHECK',
  'HTTP_RESOURCES_JS_CHECK',
  'OPEN_EXTERNAL_JS_CHECK',
  'DANGEROUS_FUNCTIONS_JS_CHECK',
  'LIMIT_NAVIGATION_GLOBAL_CHECK',
  'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK',
];

/** A CSP the evaluator must object to, proving the CSP evaluation can fail. */
export const WEAK_SAMPLE_CSP = "default-src *; script-src 'self' 'unsafe-inline' 'unsafe-eval'";
