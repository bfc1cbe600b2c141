import "server-only";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { hasRole, type Role } from "@/lib/domain/roles";
import { AppError, isAppError } from "@/lib/errors";
import { auth } from "./next-auth";
import { type SessionUser, userFromSession } from "./session-user";

// Every check of who may do what starts here. Actions and route handlers get typed errors
// (401, 403) to turn into responses; pages get the sign-in redirect or the app's 403 page.

/** Throws `forbidden:role` unless the user holds `role` or a higher one. */
export function ensureRole(user: SessionUser, role: Role): SessionUser {
  if (!hasRole(user.role, role)) throw new AppError("forbidden:role");
  return user;
}

/** For actions and route handlers: the signed-in user, or an `unauthorized:session` AppError (401). */
export async function requireUser(): Promise<SessionUser> {
  return userFromSession(await auth());
}

/** For actions and route handlers: 401 when signed out, `forbidden:role` (403) below `role`. */
export async function requireRole(role: Role): Promise<SessionUser> {
  return ensureRole(await requireUser(), role);
}

export function loginPathFor(returnTo: string): string {
  return `/login?callbackUrl=${encodeURIComponent(returnTo)}`;
}

/**
 * The signed-in user of a page, or null. Never throws for a missing session. Memoised per
 * server render: the nav and the page both ask, and each session read costs a user-row read.
 */
export const getPageUser = cache(async (): Promise<SessionUser | null> => {
  try {
    return userFromSession(await auth());
  } catch (error) {
    if (isAppError(error, "unauthorized:session")) return null;
    throw error;
  }
});

/**
 * For server components: a signed-out visitor is sent to the sign-in page and comes back to
 * `returnTo` afterwards. Pages pass their own path because a server component cannot read it.
 */
export async function requirePageUser(returnTo: string): Promise<SessionUser> {
  const user = await getPageUser();
  if (!user) redirect(loginPathFor(returnTo));
  return user;
}

/** `requirePageUser`, and the app's 403 page for a signed-in user below `role`. */
export async function requirePageRole(role: Role, returnTo: string): Promise<SessionUser> {
  const user = await requirePageUser(returnTo);
  if (!hasRole(user.role, role)) forbidden();
  return user;
}
