"use client";

import { useEffect, useRef } from "react";
import { type InboxShortcut, SHORTCUT_HELP, shortcutFor } from "./shortcut-keys";

// The handler finds its targets by these hooks in the markup, so the list, the bulk bar and the
// request's form stay plain components that know nothing of the keyboard.
const ROW = ".inbox-list .inbox-row";
const DETAIL = ".inbox-pane-detail";

function rows(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(ROW)];
}

/** The row the keyboard is on: the one holding focus, else the one shown beside the list. */
function currentRow(list: HTMLElement[]): number {
  const focused = list.findIndex((row) => row.contains(document.activeElement));
  if (focused >= 0) return focused;
  return list.findIndex((row) => row.classList.contains("inbox-row-selected"));
}

function inDetail<T extends HTMLElement>(selector: string): T | null {
  return document.querySelector<T>(`${DETAIL} ${selector}`);
}

/** Carries out one shortcut; false when it had nothing to act on (the key then does what it always does). */
function perform(shortcut: InboxShortcut, openHelp: () => void): boolean {
  const list = rows();
  const at = currentRow(list);
  switch (shortcut) {
    case "next":
    case "previous": {
      if (list.length === 0) return false;
      const step = shortcut === "next" ? 1 : -1;
      const to = at < 0 ? 0 : Math.min(list.length - 1, Math.max(0, at + step));
      list[to]?.querySelector<HTMLElement>("a")?.focus();
      return true;
    }
    case "open": {
      // A focused link opens by itself; this is for Enter pressed with nothing focused.
      if (document.activeElement && document.activeElement !== document.body) return false;
      const link = at >= 0 ? list[at]?.querySelector<HTMLElement>("a") : null;
      link?.click();
      return Boolean(link);
    }
    case "select": {
      const box = at >= 0 ? list[at]?.querySelector<HTMLInputElement>('input[type="checkbox"]') : null;
      if (!box || box.disabled) return false;
      box.click();
      return true;
    }
    case "approve": {
      const button = inDetail<HTMLButtonElement>('[data-shortcut="approve"]');
      if (!button || button.disabled) return false;
      button.click();
      return true;
    }
    case "decline":
      return focus(inDetail('[data-shortcut="decline-reason"]'));
    case "edit":
      return focus(
        inDetail('[data-shortcut="approval"] form :is(input, select, textarea):not([type="hidden"])'),
      );
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
