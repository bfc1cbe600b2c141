"use client";

import type { InboxItem } from "@/components/inbox/inbox-item";
import { InboxList } from "@/components/inbox/inbox-list";
import { answerManyAction } from "./actions";

/** Binds the inbox list to the bulk answer action. */
export function InboxBulk({ items, canBulk }: { items: InboxItem[]; canBulk: boolean }) {
  return <InboxList items={items} canBulk={canBulk} submitBulk={answerManyAction} />;
}
