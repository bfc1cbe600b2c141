type Env = Record<string, string | undefined>;

export function isGitHubConfigured(env: Env): boolean {
  return Boolean(env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET);
}

export function isOidcConfigured(env: Env): boolean {
  return Boolean(env.AUTH_OIDC_ISSUER && env.AUTH_OIDC_ID && env.AUTH_OIDC_SECRET);
}

/**
 * Demo mode turns on the password sign-in for the seeded demo accounts. It is the default
 * until a real identity provider is configured, so a fresh clone can be tried at once,
 * and `TOOLNEXUS_DEMO` forces it either way.
 */
export function isDemoMode(env: Env = process.env): boolean {
  const flag = env.TOOLNEXUS_DEMO?.trim().toLowerCase();
  if (flag === "1" || flag === "true") return true;
  if (flag === "0" || flag === "false") return false;
  return !isGitHubConfigured(env) && !isOidcConfigured(env);
}
