"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/** What a server action of an admin row answers: done, or refused with words to show. */
export type RowActionResult = { ok: true } | { ok: false; error: { message: string } };

/**
 * Runs a row's server action: `busy` while it runs, the refusal's message as `failure`, and the
 * page read again afterwards either way, so the row shows what the server holds now.
 */
export function useRefreshingAction() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const act = async (work: () => Promise<RowActionResult>) => {
    setBusy(true);
    setFailure(null);
    const result = await work().catch(() => ({
      ok: false as const,
      error: { message: "Please try again." },
    }));
    setBusy(false);
    if (!result.ok) setFailure(result.error.message);
    router.refresh();
  };
  return { busy, failure, act };
}

/** The last action's refusal, as an alert; nothing while there is none. */
export function ActionFailure({ text }: { text: string | null }) {
  return text ? (
    <p role="alert" className="field-error">
      {text}
    </p>
  ) : null;
}
