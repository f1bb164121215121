/**
 * The signing and notarisation a release build gets from its environment (the release job passes
 * its secrets under electron-builder's names), each one present or skipped with a line that says
 * so. An absent secret arrives as an empty variable, which electron-builder would take for a
 * certificate to load: it is taken out, and on macOS the keychain's identities are not searched
 * either, so the build is left ad-hoc signed, as CI's are. The App Store Connect key comes as its
 * text (APPLE_API_KEY_P8) and is written to an owner-only file for electron-builder, which wants
 * a path (APPLE_API_KEY).
 */

export interface SigningPlan {
  /** The environment electron-builder runs with. */
  readonly env: NodeJS.ProcessEnv;
  /** One line per concern, said before the build. */
  readonly lines: readonly string[];
}

const present = (value: string | undefined): value is string =>
  value !== undefined && value.trim() !== '';

function withoutKeys(env: NodeJS.ProcessEnv, keys: readonly string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !keys.includes(key)));
}

function macPlan(env: NodeJS.ProcessEnv, writeKey: (text: string) => string): SigningPlan {
  const lines: string[] = [];
  if (!present(env['CSC_LINK'])) {
    return {
      env: {
        ...withoutKeys(env, [
          'CSC_LINK',
          'CSC_KEY_PASSWORD',
          'APPLE_API_KEY_P8',
          'APPLE_API_KEY_ID',
          'APPLE_API_ISSUER',
        ]),
        CSC_IDENTITY_AUTO_DISCOVERY: 'false',
      },
      lines: [
        'signing: skipped: no MAC_CSC_LINK secret, so the app is left ad-hoc signed (Gatekeeper will not pass it, Squirrel.Mac will not update it)',
        'notarisation: skipped: nothing is notarised without a Developer ID signature',
      ],
    };
  }
  lines.push('signing: the Developer ID certificate in MAC_CSC_LINK signs the app');
  const notarise = ['APPLE_API_KEY_P8', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'].every((key) =>
    present(env[key]),
  );
  if (!notarise) {
    lines.push(
      'notarisation: skipped: APPLE_API_KEY_P8, APPLE_API_KEY_ID and APPLE_API_ISSUER are not all set',
    );
    return {
      env: withoutKeys(env, ['APPLE_API_KEY_P8', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER']),
      lines,
    };
  }
  lines.push('notarisation: with the App Store Connect API key, then stapled');
  const key = writeKey(env['APPLE_API_KEY_P8'] ?? '');
  return { env: { ...withoutKeys(env, ['APPLE_API_KEY_P8']), APPLE_API_KEY: key }, lines };
}

/**
 * What a release build on `platform` signs with, from `env`; `writeKey` stores the notarisation
 * key's text and answers its path.
 */
export function signingPlan(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  writeKey: (text: string) => string,
): SigningPlan {
  if (platform === 'darwin') return macPlan(env, writeKey);
  if (platform === 'win32') {
    if (present(env['WIN_CSC_LINK']))
      return {
        env,
        lines: [
          'signing: the Authenticode certificate in WIN_CSC_LINK signs the installer and app',
        ],
      };
    return {
      env: withoutKeys(env, [
        'WIN_CSC_LINK',
        'WIN_CSC_KEY_PASSWORD',
        'CSC_LINK',
        'CSC_KEY_PASSWORD',
      ]),
      lines: [
        'signing: skipped: no WIN_CSC_LINK secret, so the installer and app are unsigned (SmartScreen will warn)',
      ],
    };
  }
  return {
    env,
    lines: ['signing: the deb and rpm are not signed here (an apt or dnf repository signs them)'],
  };
}
