import "server-only";
import { auth } from "./next-auth";
import { type SessionUser, userFromSession } from "./session-user";

/** For actions and route handlers: the signed-in user, or an `unauthorized:session` AppError (401). */
export async function requireUser(): Promise<SessionUser> {
  return userFromSession(await auth());
}
