import { PrismaAdapter } from "@auth/prisma-adapter";
import type { NextAuthConfig } from "next-auth";
import type { Provider } from "next-auth/providers";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import type { DbClient } from "@/lib/db/db-types";
import { raiseSessionVersionByUserId } from "@/lib/db/session-versions";
import { isDatabaseUnavailable } from "@/lib/db/sql/database-unavailable";
import { getUserById } from "@/lib/db/users";
import { parseRole } from "@/lib/domain/roles";
import { logger } from "@/lib/log/logger";
import { resolveAuthSecret } from "./auth-secret";
import { isDemoMode, isGitHubConfigured, isOidcConfigured } from "./demo-mode";
import { authorizePassword } from "./password-sign-in";

type Env = Record<string, string | undefined>;

export const OIDC_PROVIDER_ID = "oidc";

/** Sign-in options the login page offers besides the demo password form. */
export function listOAuthProviders(env: Env = process.env): Array<{ id: string; name: string }> {
  const providers: Array<{ id: string; name: string }> = [];
  if (isGitHubConfigured(env)) providers.push({ id: "github", name: "GitHub" });
  if (isOidcConfigured(env))
    providers.push({ id: OIDC_PROVIDER_ID, name: env.AUTH_OIDC_NAME || "Single sign-on" });
  return providers;
}

function buildProviders(env: Env, db: () => DbClient): Provider[] {
  const providers: Provider[] = [];
  if (isDemoMode(env)) {
    providers.push(
      Credentials({
        id: "credentials",
        name: "Demo account",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        authorize: (raw, request) => authorizePassword({ db: db(), raw, request }),
      }),
    );
  }
  if (isGitHubConfigured(env)) {
    providers.push(GitHub({ clientId: env.AUTH_GITHUB_ID, clientSecret: env.AUTH_GITHUB_SECRET }));
  }
  if (isOidcConfigured(env)) {
    providers.push({
      id: OIDC_PROVIDER_ID,
      name: env.AUTH_OIDC_NAME || "Single sign-on",
      type: "oidc",
      issuer: env.AUTH_OIDC_ISSUER,
      clientId: env.AUTH_OIDC_ID,
      clientSecret: env.AUTH_OIDC_SECRET,
    });
  }
  return providers;
}

/**
 * The whole next-auth setup in one place. Sessions are JWTs (the Credentials provider needs
 * that) carrying the user id; the role is read from the user row on every request. The Prisma
 * adapter stores OAuth users and accounts.
 */
export function createAuthConfig(options: {
  db: () => DbClient;
  env?: Env;
  secretFile?: string;
}): NextAuthConfig {
  const env = options.env ?? process.env;
  const secret = resolveAuthSecret({ env, ...(options.secretFile ? { file: options.secretFile } : {}) });
  // The generated client has the adapter's expected shape, but not the type of the
  // `@prisma/client` package the adapter was compiled against. Constructing it opens nothing.
  // Behind a TLS-terminating proxy the request itself may look like plain HTTP; the configured
  // public URL says how people reach the app, so it decides whether cookies are Secure.
  const appUrl = env.TOOLNEXUS_APP_URL?.trim() || env.AUTH_URL?.trim();
  const adapter = PrismaAdapter(options.db() as unknown as Parameters<typeof PrismaAdapter>[0]);

  return {
    adapter,
    providers: buildProviders(env, options.db),
    session: { strategy: "jwt" },
    ...(appUrl ? { useSecureCookies: appUrl.startsWith("https:") } : {}),
    trustHost: true,
    ...(secret ? { secret } : {}),
    pages: { signIn: "/login", error: "/login" },
    // next-auth's own console output, as JSON lines without what was submitted. A refused
    // password is routine and says so quietly; the rest are errors worth a look.
    logger: {
      error(error) {
        if (error.name === "CredentialsSignin") logger.info({ type: error.name }, "sign-in refused");
        else logger.error({ err: error }, "auth error");
      },
      warn(code) {
        logger.warn({ code }, "auth warning");
      },
      debug() {},
    },
    events: {
      // Every sign-out path (the app's button, next-auth's own endpoint) ends up here. Raising
      // the version revokes the token itself, not only the cookie in this browser: a copied
      // cookie stops working too. It ends the account's other sessions as well (ADR 0025).
      async signOut(message) {
        const sub = "token" in message ? message.token?.sub : undefined;
        if (sub) await raiseSessionVersionByUserId({ db: options.db(), userId: sub });
      },
    },
    callbacks: {
      async jwt({ token, user }) {
        // Said of an earlier request only (see below).
        delete token.unavailable;
        // `user` is only present on the sign-in request. The token remembers the account's
        // session version from then on; signing out raises it, which ends this token.
        if (user) {
          if (user.id) token.sub = user.id;
          const stored = user.id ? await getUserById({ db: options.db(), userId: user.id }) : null;
          if (!stored) return null;
          token.role = stored.role;
          token.sv = stored.sessionVersion;
          return token;
        }
        // Afterwards the token only says who signed in; the user row says what they may do now,
        // so a demoted reviewer, a deleted account or a signed-out session loses access on the
        // next request rather than when the token expires. One primary-key read per request.
        if (!token.sub) return null;
        const stored = await readUser(options.db(), token.sub);
        // The database briefly away says nothing about the session. next-auth clears the cookie
        // of a callback that throws, which would sign everyone out during a restart; the token
        // is kept instead, marked, and the request is refused as briefly unavailable (ADR 0060).
        if (stored === "unavailable") return { ...token, unavailable: true };
        if (!stored) return null;
        if (stored.sessionVersion !== (typeof token.sv === "number" ? token.sv : 0)) return null;
        token.role = stored.role;
        return token;
      },
      session({ session, token }) {
        if (token.unavailable === true) (session as unknown as { unavailable: true }).unavailable = true;
        if (token.sub) session.user.id = token.sub;
        // Long-lived streams remember it, to end themselves once the session is revoked.
        (session as unknown as { sessionVersion: number }).sessionVersion =
          typeof token.sv === "number" ? token.sv : 0;
        (session.user as unknown as { role: string }).role = parseRole(token.role);
        return session;
      },
    },
  };
}

async function readUser(db: DbClient, userId: string) {
  try {
    return await getUserById({ db, userId });
  } catch (error) {
    if (isDatabaseUnavailable(error)) return "unavailable" as const;
    throw error;
  }
}
