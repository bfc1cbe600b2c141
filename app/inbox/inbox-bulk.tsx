"use client";

import { useCallback } from "react";
import type { InboxItem, SubmitBulk } from "@/components/inbox/inbox-item";
import { InboxList } from "@/components/inbox/inbox-list";
import { answerManyAction } from "./actions";

/** Binds the inbox list to the bulk answer action. */
export function InboxBulk({ items, canBulk }: { items: InboxItem[]; canBulk: boolean }) {
  const submitBulk = useCallback<SubmitBulk>(async (input) => {
    const result = await answerManyAction(input);
    return result.ok ? { ok: true, outcomes: result.value } : { ok: false, message: result.error.message };
  }, []);
  return <InboxList items={items} canBulk={canBulk} submitBulk={submitBulk} />;
}
