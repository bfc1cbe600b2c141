// The headers every response carries. Framework-free, so the proxy and the tests share them.

/** A fresh, unguessable nonce per response (128 random bits, base64). */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The Content-Security-Policy. Scripts run only with this response's nonce (Next puts it on its
 * own inline and chunk scripts) or when loaded by such a script ('strict-dynamic'): an injected
 * `<script>` or event-handler attribute does not run, and no script can turn a string into code
 * (no 'unsafe-eval': the request forms validate by interpreting their schemas, ADR 0039); only
 * `next dev`, whose reloading evaluates modules, gets it. Styles allow inline
 * attributes, which React and the form library set. Nothing may frame the app, so the Approve
 * button cannot be overlaid by another site (clickjacking).
 */
export function contentSecurityPolicy({
  nonce,
  dev,
  https,
}: {
  nonce: string;
  dev: boolean;
  https: boolean;
}): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    // `next dev` reloads through a websocket.
    `connect-src 'self'${dev ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** Everything besides the CSP; HSTS only over HTTPS, where browsers honour it. */
export function staticSecurityHeaders({ https }: { https: boolean }): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy":
      "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), interest-cohort=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    ...(https ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

/**
 * Every header a response of this app carries: its policy (with the nonce the page's scripts
 * got), its request id and the static ones. The proxy sets them on what Next answers, and the
 * live streams served beside Next (`app/_lib/serve-stream-directly.ts`) on theirs.
 */
export function responseSecurityHeaders({
  nonce,
  requestId,
  dev,
  https,
}: {
  nonce: string;
  requestId: string;
  dev: boolean;
  https: boolean;
}): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy({ nonce, dev, https }),
    "X-Request-Id": requestId,
    ...staticSecurityHeaders({ https }),
  };
}
