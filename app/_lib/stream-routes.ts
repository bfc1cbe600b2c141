import "server-only";
import { openRunStream } from "@/app/chat/_lib/open-run-stream";
import { openThreadsStream } from "@/app/chat/_lib/open-threads-stream";
import { openInboxStream } from "@/app/inbox/_lib/open-inbox-stream";
import { openWaitingCountStream } from "@/app/inbox/_lib/open-waiting-count-stream";
import type { SessionUser } from "@/lib/auth/session-user";
import type { AppServices } from "./app-services";

/** What a live stream is opened with, however the request reached the app. */
export type StreamCall = {
  actor: SessionUser;
  url: URL;
  /** The path's dynamic segments, decoded, by name. */
  params: Readonly<Record<string, string>>;
  /** Aborts when the client leaves, the session is revoked or the server drains. */
  signal: AbortSignal;
};

export type StreamRoute = {
  /** The route's path, `:name` for a dynamic segment, as its folder under app/ spells it. */
  path: string;
  open: (call: StreamCall, services: AppServices) => Response | Promise<Response>;
};

/**
 * The app's live streams, each served by its Next route handler (`next dev`) and, in
 * production, beside Next by server.mjs (ADR 0041): one definition, so the two cannot differ.
 */
export const STREAM_ROUTES = {
  /** GET ?run=<id>: one run's UI message stream; without `run`, the thread's active run or 204. */
  threadRun: {
    path: "/api/threads/:id/stream",
    open: ({ actor, url, params, signal }, services) => {
      const run = url.searchParams.get("run");
      const input = { threadId: params.id, ...(run !== null ? { runId: run } : {}) };
      return openRunStream({ actor, input, signal }, services);
    },
  },
  /** GET: changes to the signed-in user's chat sidebar. */
  threads: {
    path: "/api/threads/stream",
    open: ({ actor, signal }, services) => openThreadsStream({ actor, signal }, services),
  },
  /** GET: the signed-in viewer's inbox changes; what it counts is what they may see. */
  inbox: {
    path: "/api/inbox/stream",
    open: ({ actor, signal }, services) => openInboxStream({ actor, signal }, services),
  },
  /** GET: how many requests wait for the signed-in viewer. */
  waitingCount: {
    path: "/api/inbox/count/stream",
    open: ({ actor, signal }, services) => openWaitingCountStream({ actor, signal }, services),
  },
} satisfies Record<string, StreamRoute>;

/**
 * The stream route `pathname` names, with its dynamic segments decoded, or null. Exact match
 * only, as Next's router: a trailing slash or an undecodable segment is not a stream.
 */
export function matchStreamRoute(
  pathname: string,
): { route: StreamRoute; params: Record<string, string> } | null {
  const parts = pathname.split("/");
  for (const route of Object.values(STREAM_ROUTES) as StreamRoute[]) {
    const pattern = route.path.split("/");
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let i = 0; i < pattern.length && matched; i++) {
      const want = pattern[i]!;
      const got = parts[i]!;
      if (!want.startsWith(":")) matched = want === got;
      else {
        const value = decodeSegment(got);
        matched = value !== null && value !== "";
        if (matched) params[want.slice(1)] = value!;
      }
    }
    if (matched) return { route, params };
  }
  return null;
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
