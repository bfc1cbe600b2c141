"use client";

import type { TakeView } from "@/lib/domain/inbox";
import { useLapsed } from "./use-lapsed";

/** "Rita is on it" on an inbox row, gone by itself once the take lapses. */
export function TakenNote({ take }: { take: TakeView }) {
  const lapsed = useLapsed(take.until);
  if (lapsed) return null;
  return (
    <span className="badge badge-taken" data-testid="taken-note">
      {take.deciding
        ? `${take.mine ? "You are" : `${take.takerName} is`} deciding…`
        : take.mine
          ? "You are on it"
          : `${take.takerName} is on it`}
    </span>
  );
}
