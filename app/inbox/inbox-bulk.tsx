"use client";

import type { InboxItem } from "@/components/inbox/inbox-item";
import { InboxList } from "@/components/inbox/inbox-list";
import { answerManyAction } from "./actions";

/** Binds the inbox list to the bulk answer action. */
export function InboxBulk({
  items,
  canBulk,
  selectedId,
  defaultView,
}: {
  items: InboxItem[];
  canBulk: boolean;
  selectedId?: string;
  defaultView: boolean;
}) {
  return (
    <InboxList
      items={items}
      canBulk={canBulk}
      submitBulk={answerManyAction}
      defaultView={defaultView}
      {...(selectedId ? { selectedId } : {})}
    />
  );
}
