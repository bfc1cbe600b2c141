"use client";

import { OutcomeBadge } from "@/components/outcome-badge";
import type { HeldEntry } from "./decisions-context";

/**
 * A decision this page has just made, in its Undo window: it reads as made (the reviewer moves
 * on) but says it has not taken effect, and offers the Undo the toast offers too.
 */
export function HeldAnswer({ entry, onUndo }: { entry: HeldEntry; onUndo: () => void }) {
  return (
    <section className="tn-answered" aria-label="Answer">
      <OutcomeBadge outcome={entry.outcome} as="p" />
      {entry.state === "held" ? (
        <>
          <p>By you, just now. It takes effect in a few seconds; until then nothing has run.</p>
          <button type="button" className="button button-secondary" onClick={onUndo}>
            Undo
          </button>
        </>
      ) : (
        <p>By you, just now.</p>
      )}
    </section>
  );
}
