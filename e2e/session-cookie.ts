import type { BrowserContext } from "@playwright/test";
import { encode } from "next-auth/jwt";
import type { Db } from "@/lib/db/sql/client";
import { getUserById } from "@/lib/db/users";
import { E2E_AUTH_SECRET } from "./topology/app-instance";

// Signs a browser context in without the sign-in page, for the tests that are about something
// else: the cookie is the one next-auth itself sets after a password sign-in, made here.

/** next-auth's session cookie on a plain-http origin (https would add the `__Secure-` prefix). */
const SESSION_COOKIE = "authjs.session-token";
const ONE_HOUR_S = 60 * 60;

/**
 * Adds a valid session for the account `userId` to `context`: a JWT encrypted with the server's
 * secret (salted with the cookie name, as next-auth does) carrying what the sign-in callback puts
 * in it, read from the stored row: the user id, name, email, role and session version.
 */
export async function addSessionCookie(
  context: BrowserContext,
  { db, userId, baseURL }: { db: Db; userId: string; baseURL: string },
): Promise<void> {
  const user = await getUserById({ db, userId });
  if (!user) throw new Error(`No account ${userId} to sign in as`);
  const value = await encode({
    salt: SESSION_COOKIE,
    secret: E2E_AUTH_SECRET,
    maxAge: ONE_HOUR_S,
    token: {
      sub: user.id,
      name: user.name,
      email: user.email,
      picture: null,
      role: user.role,
      sv: user.sessionVersion,
    },
  });
  await context.addCookies([{ name: SESSION_COOKIE, value, url: baseURL, httpOnly: true, sameSite: "Lax" }]);
}
