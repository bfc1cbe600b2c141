"use client";

import * as Toast from "@radix-ui/react-toast";
import { useRouter } from "next/navigation";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type Decisions, DecisionsContext, type HeldEntry } from "@/components/decisions/decisions-context";
import { unsentResult } from "@/lib/errors";
import { commitDecisionsAction, holdDecisionAction, undoDecisionsAction } from "./actions";
import "./decision-toasts.css";

// Past the server's commit time, so the page's own commit is never refused as early; the
// engine's sweep commits at that time anyway, this only refreshes the page promptly.
const COMMIT_GRACE_MS = 300;

/**
 * Held decisions and their toasts ("Approved · Undo"), for the whole app: a toast outlives the
 * inbox pane that made it (triage moves on at once). Built on Radix Toast, which announces each
 * toast politely, gives it a labelled region reachable by F8, and pauses while it is hovered.
 */
export function DecisionToasts({ children }: { children: ReactNode }) {
  const router = useRouter();
  const [entries, setEntries] = useState<HeldEntry[]>([]);
  const timers = useRef(new Map<string, number>());

  const update = useCallback((key: string, state: HeldEntry["state"]) => {
    setEntries((list) => list.map((entry) => (entry.key === key ? { ...entry, state } : entry)));
  }, []);

  const schedule = useCallback(
    (entry: HeldEntry) => {
      const timer = window.setTimeout(
        async () => {
          timers.current.delete(entry.key);
          await commitDecisionsAction({ heldIds: entry.heldIds }).catch(() => undefined);
          update(entry.key, "committed");
          router.refresh();
        },
        Math.max(0, entry.commitAt - Date.now()) + COMMIT_GRACE_MS,
      );
      timers.current.set(entry.key, timer);
    },
    [router, update],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) window.clearTimeout(timer);
    };
  }, []);

  const showHeld = useCallback<Decisions["showHeld"]>(
    (held) => {
      const entry: HeldEntry = { ...held, key: held.heldIds.join(","), state: "held" };
      setEntries((list) => [...list.filter((other) => other.key !== entry.key), entry]);
      schedule(entry);
    },
    [schedule],
  );

  const holdOne = useCallback<Decisions["holdOne"]>(
    async (requestId, answer) => {
      const result = await holdDecisionAction({ requestId, answer }).catch(() =>
        unsentResult("The decision could not be sent. Please try again."),
      );
      if (result.ok) {
        showHeld({
          requestIds: [requestId],
          heldIds: [result.value.heldId],
          outcome: answer.ok ? "approved" : "declined",
          text: answer.ok ? "Approved" : "Declined",
          commitAt: Date.parse(result.value.commitAt),
        });
      }
      return result;
    },
    [showHeld],
  );

  const undo = useCallback<Decisions["undo"]>(
    async (key) => {
      const entry = entries.find((candidate) => candidate.key === key);
      if (entry?.state !== "held") return;
      const result = await undoDecisionsAction({ heldIds: entry.heldIds }).catch(() => null);
      if (result?.ok) {
        window.clearTimeout(timers.current.get(key));
        timers.current.delete(key);
      }
      update(key, result?.ok ? "undone" : "late");
      router.refresh();
    },
    [entries, router, update],
  );

  const value = useMemo<Decisions>(
    () => ({
      holdOne,
      showHeld,
      undo,
      heldFor: (requestId) =>
        entries.find((entry) => entry.state !== "undone" && entry.requestIds.includes(requestId)),
    }),
    [entries, holdOne, showHeld, undo],
  );

  return (
    <DecisionsContext.Provider value={value}>
      <Toast.Provider label="Decisions" swipeDirection="right">
        {children}
        {entries
          .filter((entry) => !entry.dismissed)
          .map((entry) => (
            <DecisionToast
              key={entry.key}
              entry={entry}
              onUndo={() => void undo(entry.key)}
              // A held decision dismissed early still commits, and its pane still shows it.
              onGone={() =>
                setEntries((list) =>
                  entry.state === "held"
                    ? list.map((other) => (other.key === entry.key ? { ...other, dismissed: true } : other))
                    : list.filter((other) => other.key !== entry.key),
                )
              }
            />
          ))}
        <Toast.Viewport className="decision-toasts" label="Decisions ({hotkey})" />
      </Toast.Provider>
    </DecisionsContext.Provider>
  );
}

const AFTER: Record<Exclude<HeldEntry["state"], "held">, string> = {
  undone: "Undone: nothing was decided.",
  committed: "Done.",
  late: "Too late to undo: it has already taken effect.",
};

function DecisionToast({
  entry,
  onUndo,
  onGone,
}: {
  entry: HeldEntry;
  onUndo: () => void;
  onGone: () => void;
}) {
  const held = entry.state === "held";
  return (
    <Toast.Root
      className={`decision-toast decision-toast-${entry.outcome}`}
      // Held: open until it commits (the Undo window). After: a short while, then gone.
      duration={held ? Math.max(1000, entry.commitAt - Date.now() + 2000) : 4000}
      onOpenChange={(open) => {
        if (!open) onGone();
      }}
    >
      <Toast.Title className="decision-toast-title">{entry.text}</Toast.Title>
      {entry.state !== "held" && <Toast.Description>{AFTER[entry.state]}</Toast.Description>}
      {held && (
        <Toast.Action altText="Undo the decision (it has not taken effect yet)" asChild>
          <button
            type="button"
            className="button button-secondary decision-toast-undo"
            onClick={(event) => {
              // Radix closes a toast when its action is clicked; this one stays to say "Undone".
              event.preventDefault();
              onUndo();
            }}
          >
            Undo
          </button>
        </Toast.Action>
      )}
    </Toast.Root>
  );
}
