"use client";

import { SignedOutNotice } from "@/components/signed-out-notice";
import { useLiveVersion } from "@/components/use-live-version";

const LABELS = { connecting: "Connecting…", live: "Live", reconnecting: "Reconnecting…" } as const;

/** Keeps the inbox current and says, quietly, whether it is. */
export function InboxLiveStatus({ version }: { version: string }) {
  const state = useLiveVersion("/api/inbox/stream", version);
  if (state === "signed-out") return <SignedOutNotice />;
  return (
    <p role="status" className={`inbox-live inbox-live-${state} muted`}>
      {LABELS[state]}
    </p>
  );
}
