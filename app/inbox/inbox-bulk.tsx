"use client";

import type { InboxItem } from "@/components/inbox/inbox-item";
import { InboxList } from "@/components/inbox/inbox-list";
import { answerManyAction } from "./actions";

/** Binds the inbox list to the bulk answer action. */
export function InboxBulk({
  items,
  canBulk,
  selectedId,
}: {
  items: InboxItem[];
  canBulk: boolean;
  selectedId?: string;
}) {
  return (
    <InboxList
      items={items}
      canBulk={canBulk}
      submitBulk={answerManyAction}
      {...(selectedId ? { selectedId } : {})}
    />
  );
}
