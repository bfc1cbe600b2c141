"use client";

import { useRouter } from "next/navigation";
import { useCallback } from "react";
import { TakeControl } from "@/components/inbox/take-control";
import type { TakeView } from "@/lib/domain/inbox";
import { takeRequestAction } from "./actions";

/** The take button bound to its action; the page re-renders to show the new holder. */
export function TakeRequestControl({ requestId, take }: { requestId: string; take: TakeView | null }) {
  const router = useRouter();
  const onTake = useCallback(
    async (want: boolean) => {
      const result = await takeRequestAction({ requestId, take: want });
      router.refresh();
      return result;
    },
    [requestId, router],
  );
  return <TakeControl take={take} onTake={onTake} />;
}
