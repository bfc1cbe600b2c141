import "server-only";
import type { DbClient } from "@/lib/db/db-types";
import { getUserById } from "@/lib/db/users";
import { auth } from "./next-auth";
import { type SessionUser, userFromSession } from "./session-user";

/** How often an open stream re-checks that its session was not revoked meanwhile. */
export const SESSION_RECHECK_MS = 10_000;

/** For long-lived routes: the signed-in user and the session version their token carries. */
export async function requireUserAndSessionVersion(): Promise<{ user: SessionUser; sessionVersion: number }> {
  const session = await auth();
  const user = userFromSession(session);
  const version = (session as { sessionVersion?: unknown } | null)?.sessionVersion;
  return { user, sessionVersion: typeof version === "number" ? version : 0 };
}

/**
 * A signal that aborts with `signal`, or as soon as the session it was opened with ends (signed
 * out, signed out everywhere, account deleted). A live stream is authorised once, when it
 * opens; this ends it within SESSION_RECHECK_MS of a revocation, and the browser's reconnect
 * then meets the 401 it should.
 */
export function sessionWatchSignal({
  db,
  userId,
  sessionVersion,
  signal,
  everyMs = SESSION_RECHECK_MS,
}: {
  db: DbClient;
  userId: string;
  sessionVersion: number;
  signal: AbortSignal;
  everyMs?: number;
}): AbortSignal {
  const controller = new AbortController();
  const stop = () => {
    clearInterval(timer);
    controller.abort();
  };
  const timer = setInterval(() => {
    getUserById({ db, userId }).then(
      (user) => {
        if (!user || user.sessionVersion !== sessionVersion) stop();
      },
      // A failed read is not a revocation; the next tick asks again.
      () => {},
    );
  }, everyMs);
  timer.unref?.();
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  return controller.signal;
}
