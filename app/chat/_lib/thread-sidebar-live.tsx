"use client";

import { useLiveVersion } from "@/components/use-live-version";

/**
 * Re-renders the chat page whenever the sidebar it shows falls behind. It says nothing: the
 * chat's own stream reports its connection, and a sidebar that cannot follow stays as it was.
 */
export function ThreadSidebarLive({ version }: { version: string }) {
  useLiveVersion("/api/threads/stream", version);
  return null;
}
