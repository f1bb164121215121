/**
 * A key's fingerprint: short, stable, and safe to show and store. It identifies which key created
 * a task without revealing anything usable about the key.
 */

/** Hex SHA-256 of `pictor-key:` + key, first 12 characters. Uses Web Crypto (Node and browser). */
export async function keyFingerprint(key: string): Promise<string> {
  const bytes = new TextEncoder().encode(`pictor-key:${key}`);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest).slice(0, 6), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}
