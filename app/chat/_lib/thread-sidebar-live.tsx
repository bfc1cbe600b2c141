"use client";

import { SignedOutNotice } from "@/components/signed-out-notice";
import { useLiveVersion } from "@/components/use-live-version";

/**
 * Re-renders the chat page whenever the sidebar it shows falls behind. It says nothing while
 * it follows: the chat's own stream reports its connection, and a sidebar that cannot follow
 * stays as it was. Only a session that ended is news, since nothing on the page works then.
 */
export function ThreadSidebarLive({ version }: { version: string }) {
  const state = useLiveVersion("/api/threads/stream", version);
  return state === "signed-out" ? <SignedOutNotice /> : null;
}
