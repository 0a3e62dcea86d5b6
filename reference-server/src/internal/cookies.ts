/** The httpOnly cookie holding the access token for the WebSocket endpoint (see the OpenAPI document). */
export const TOKEN_COOKIE = 'assetloom_token';

/**
 * The `Set-Cookie` value for the token cookie: `Path=/; HttpOnly; SameSite=Lax`, `Max-Age` equal to
 * the token lifetime, and `Secure` when asked (everywhere but development). Written by hand rather
 * than through Koa's `ctx.cookies`, which refuses Secure cookies on a plain-HTTP socket behind a
 * TLS-terminating proxy unless the proxy is trusted.
 */
export function tokenCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  if (!/^[A-Za-z0-9._-]+$/.test(token)) {
    throw new TypeError('[assetloom/server] a token cookie value must be a JWT (base64url and dots)');
  }
  const parts = [
    `${TOKEN_COOKIE}=${token}`,
    'Path=/',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
