/**
 * The certificate authorities Pictor's own TLS trusts (pinned-dial.ts: image downloads, signed
 * uploads and the service's requests to an https server on this computer; the CLI's undici for
 * its other service requests, adapters/node-fetch.ts): Node's default set (its bundled Mozilla
 * store, and NODE_EXTRA_CA_CERTS when set) together with the operating system's trusted store, as
 * the app's own network stack (Chromium) and a browser on the same computer trust. A local engine served with a certificate from an authority the user installed in the
 * system (mkcert and the like) is trusted by both its service calls and its downloads; Node's set
 * alone refused it while the browser took it.
 *
 * The system store is read by Node (`tls.getCACertificates('system')`: the keychain on macOS, the
 * certificate store on Windows, OpenSSL's default file and folder on Linux, which SSL_CERT_FILE
 * and SSL_CERT_DIR name instead when set). Node reads it once per process: an authority installed
 * while Pictor runs is trusted from its next start. A Node without that function (older than
 * 22.15), or whose read of the system store fails, trusts Node's default set alone: a narrower
 * set refuses more certificates, never fewer, so a local engine's locally issued certificate is
 * refused with the certificate error SERVICE.md names, and every other https host (an image host's
 * CDN, a service on the internet) is reached as before; failing every https connection instead
 * would stop downloads a user's services depend on for want of an authority none of them needs.
 *
 * Built into one TLS context at the first https connection and shared by all (a `ca` list given to
 * each `tls.connect` would parse every authority again, ~10 ms a connection); built again when
 * Node's default set changes (`tls.setDefaultCACertificates`, which the default set's identity
 * tells: Node hands back the same frozen list until then).
 */
import type { SecureContext } from 'node:tls';

const tls = process.getBuiltinModule('node:tls');

let shared: { readonly from: readonly string[]; readonly context: SecureContext } | null = null;
let nodeOnly: SecureContext | null = null;

/** The system store's authorities; none where this Node cannot read it (see above). */
function systemAuthorities(read: typeof tls.getCACertificates): readonly string[] {
  try {
    return read('system');
  } catch {
    return [];
  }
}

/** The TLS context of every pinned https connection not given its own authorities. */
export function trustedContext(): SecureContext {
  const read = (tls as { getCACertificates?: typeof tls.getCACertificates }).getCACertificates;
  // Node's default set, which `tls.createSecureContext()` takes when given no authorities.
  if (typeof read !== 'function') return (nodeOnly ??= tls.createSecureContext());
  const node = read('default');
  if (shared?.from !== node) {
    const ca = [...new Set([...node, ...systemAuthorities(read)])];
    shared = { from: node, context: tls.createSecureContext({ ca }) };
  }
  return shared.context;
}
