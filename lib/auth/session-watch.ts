import "server-only";
import type { DbClient } from "@/lib/db/db-types";
import { getUserById } from "@/lib/db/users";
import { auth } from "./next-auth";
import { type SessionUser, userFromSession } from "./session-user";

/** How often an open stream re-checks that its session was not revoked meanwhile. */
export const SESSION_RECHECK_MS = 10_000;

/**
 * For long-lived routes: the signed-in user and the session version their token carries, from
 * `session` as next-auth read it (by default, for the request Next is serving); throws
 * `unauthorized:session` when nobody is signed in.
 */
export async function requireUserAndSessionVersion(
  readSession: () => Promise<unknown> = auth,
): Promise<{ user: SessionUser; sessionVersion: number }> {
  const session = await readSession();
  const user = userFromSession(session);
  const version = (session as { sessionVersion?: unknown } | null)?.sessionVersion;
  return { user, sessionVersion: typeof version === "number" ? version : 0 };
}

// Streams of one session share one re-check: a reviewer with ten tabs, or two thousand open
// streams on one instance, cost one read per session per interval, not one per stream.
type Watch = { streams: Set<AbortController>; forget: () => void };
const watches = new WeakMap<DbClient, Map<string, Watch>>();

function watchSession(db: DbClient, userId: string, sessionVersion: number, everyMs: number): Watch {
  const byKey = watches.get(db) ?? new Map<string, Watch>();
  watches.set(db, byKey);
  const key = `${userId}\u0000${sessionVersion}\u0000${everyMs}`;
  const known = byKey.get(key);
  if (known) return known;
  const streams = new Set<AbortController>();
  const timer = setInterval(() => {
    getUserById({ db, userId }).then(
      (user) => {
        if (user && user.sessionVersion === sessionVersion) return;
        watch.forget();
        for (const stream of [...streams]) stream.abort();
        streams.clear();
      },
      // A failed read is not a revocation; the next tick asks again.
      () => {},
    );
  }, everyMs);
  timer.unref?.();
  const watch: Watch = {
    streams,
    forget: () => {
      clearInterval(timer);
      if (byKey.get(key) === watch) byKey.delete(key);
    },
  };
  byKey.set(key, watch);
  return watch;
}

/**
 * A signal that aborts with `signal`, or as soon as the session it was opened with ends (signed
 * out, signed out everywhere, account deleted). A live stream is authorised once, when it
 * opens; this ends it within `everyMs` (SESSION_RECHECK_MS) of a revocation, and the browser's
 * reconnect then meets the 401 it should.
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
  if (signal.aborted) {
    controller.abort();
    return controller.signal;
  }
  const watch = watchSession(db, userId, sessionVersion, everyMs);
  watch.streams.add(controller);
  const leave = () => {
    watch.streams.delete(controller);
    controller.abort();
    if (watch.streams.size === 0) watch.forget();
  };
  signal.addEventListener("abort", leave, { once: true });
  controller.signal.addEventListener("abort", () => signal.removeEventListener("abort", leave), {
    once: true,
  });
  return controller.signal;
}
