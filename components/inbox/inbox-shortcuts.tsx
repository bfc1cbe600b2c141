"use client";

import { useEffect, useRef } from "react";
import { type InboxShortcut, isTypingTarget, SHORTCUT_HELP, shortcutFor } from "./shortcut-keys";
import {
  advanceWhenDecided,
  currentRow,
  highlight,
  inDetail,
  isShown,
  likeliestField,
  neighbourId,
  onceShown,
  rowLink,
  rows,
} from "./triage-dom";

/** Carries out one shortcut; false when it had nothing to act on (the key then does what it always does). */
function perform(shortcut: InboxShortcut, openHelp: () => void): boolean {
  const list = rows();
  const at = currentRow(list);
  const row = at >= 0 ? list[at] : undefined;
  switch (shortcut) {
    case "next":
    case "previous": {
      if (list.length === 0) return false;
      const step = shortcut === "next" ? 1 : -1;
      // The detail pane follows the highlight, as in a mail client's reading pane.
      return highlight(list[at < 0 ? 0 : Math.min(list.length - 1, Math.max(0, at + step))]);
    }
    case "open": {
      // A focused link opens by itself; this is for Enter pressed with nothing focused.
      if (document.activeElement && document.activeElement !== document.body) return false;
      const link = rowLink(row);
      link?.click();
      return Boolean(link);
    }
    case "select": {
      const box = row?.querySelector<HTMLInputElement>('input[type="checkbox"]');
      if (!box || box.disabled) return false;
      box.click();
      return true;
    }
    case "approve": {
      if (!row) return false;
      const decidedId = row.dataset.requestId ?? "";
      const nextId = neighbourId(list, at);
      onceShown(row, () => {
        const button = inDetail<HTMLButtonElement>('[data-shortcut="approve"]');
        if (!button || button.disabled) return;
        button.click();
        advanceWhenDecided(decidedId, nextId);
      });
      return true;
    }
    case "decline":
      if (!row) return false;
      onceShown(row, () => focus(inDetail('[data-shortcut="decline-reason"]')));
      return true;
    case "edit":
      if (!row) return false;
      onceShown(row, () => focus(likeliestField()));
      return true;
    case "approve-selected": {
      const button = document.querySelector<HTMLButtonElement>('[data-shortcut="approve-selected"]');
      if (!button || button.disabled) return false;
      button.click();
      return true;
    }
    case "search":
      return focus(document.querySelector<HTMLElement>('.inbox-filters input[name="q"]'));
    case "help":
      openHelp();
      return true;
  }
}

function focus(element: HTMLElement | null): boolean {
  if (!element || (element as HTMLInputElement).disabled) return false;
  element.focus();
  return true;
}

/** Ctrl/⌘+Enter in the decline reason sends the decline and moves on, as `a` does. */
function sendDecline(target: HTMLElement): boolean {
  const button = target
    .closest('[data-shortcut="approval"]')
    ?.querySelector<HTMLButtonElement>('[data-shortcut="decline"]');
  if (!button || button.disabled) return false;
  const list = rows();
  const at = list.findIndex(isShown);
  const decidedId = at >= 0 ? list[at]?.dataset.requestId : undefined;
  button.click();
  if (decidedId) advanceWhenDecided(decidedId, neighbourId(list, at));
  return true;
}

/** Esc leaves whatever field has the cursor, back to the list, so the next key is a shortcut again. */
function leaveField(target: HTMLElement): boolean {
  if (!isTypingTarget(target) || !target.closest("main")) return false;
  target.blur();
  const list = rows();
  const back = rowLink(list[list.findIndex(isShown)] ?? list[0]);
  back?.focus();
  return true;
}

/**
 * Mail-style keys for the inbox (`?` lists them). They never fire while typing in a field, and
 * each only stands in for a control that is on the page anyway, for the mouse and for screen
 * readers: the links, checkboxes, buttons and fields it moves to or presses.
 */
export function InboxShortcuts() {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || dialog.current?.open) return;
      const target = event.target as HTMLElement | null;
      if (target && event.key === "Escape" && leaveField(target)) {
        event.preventDefault();
        return;
      }
      if (
        target?.matches('[data-shortcut="decline-reason"]') &&
        event.key === "Enter" &&
        (event.ctrlKey || event.metaKey) &&
        sendDecline(target)
      ) {
        event.preventDefault();
        return;
      }
      const shortcut = shortcutFor({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        repeat: event.repeat,
        target: event.target as HTMLElement | null,
      });
      if (!shortcut) return;
      // Handled keys stop here: `d` must not land as a letter in the reason it just focused.
      if (perform(shortcut, () => dialog.current?.showModal())) event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <>
      <button
        type="button"
        className="link-button inbox-shortcuts-button"
        aria-keyshortcuts="?"
        onClick={() => dialog.current?.showModal()}
      >
        Keyboard shortcuts
      </button>
      <dialog ref={dialog} className="inbox-shortcuts card" aria-labelledby="inbox-shortcuts-title">
        <h2 id="inbox-shortcuts-title">Keyboard shortcuts</h2>
        <p className="muted">They work anywhere in the inbox except while you type in a field.</p>
        <dl>
          {SHORTCUT_HELP.map((entry) => (
            <div key={entry.keys}>
              <dt>
                <kbd>{entry.keys}</kbd>
              </dt>
              <dd>{entry.does}</dd>
            </div>
          ))}
        </dl>
        <form method="dialog">
          <button type="submit" className="button button-secondary">
            Close
          </button>
        </form>
      </dialog>
    </>
  );
}
