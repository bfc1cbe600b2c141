/** What a key does in the inbox; the inbox's keyboard handler carries it out. */
export type InboxShortcut =
  | "next"
  | "previous"
  | "open"
  | "approve"
  | "decline"
  | "edit"
  | "select"
  | "approve-selected"
  | "search"
  | "help";

const KEYS: Readonly<Record<string, InboxShortcut>> = {
  j: "next",
  k: "previous",
  Enter: "open",
  a: "approve",
  d: "decline",
  e: "edit",
  x: "select",
  A: "approve-selected",
  "/": "search",
  "?": "help",
};

/** The list the help dialog shows, in the order it shows them. */
export const SHORTCUT_HELP: ReadonlyArray<{ keys: string; does: string }> = [
  { keys: "j / k", does: "Move to the next / previous request; it opens beside the list" },
  { keys: "a", does: "Approve the highlighted request and move to the next" },
  { keys: "d", does: "Decline the highlighted request: type the reason (optional)" },
  { keys: "Ctrl+Enter / ⌘+Enter", does: "In the reason: send the decline and move to the next" },
  { keys: "e", does: "Edit the approval's arguments, starting with the one most likely to change" },
  { keys: "Esc", does: "Leave the field you are typing in" },
  { keys: "x", does: "Select the highlighted request for a bulk answer" },
  { keys: "Shift+A", does: "Approve the selected requests" },
  { keys: "/", does: "Search prompts" },
  { keys: "Enter", does: "Open the highlighted request" },
  { keys: "?", does: "Show these shortcuts" },
];

// Inputs that take typed text; a checkbox or a button does not, so shortcuts work there.
const NOT_TYPED = new Set([
  "checkbox",
  "radio",
  "button",
  "submit",
  "reset",
  "image",
  "file",
  "color",
  "range",
]);

/** Whether keys pressed in `target` are someone typing, which no shortcut may steal. */
export function isTypingTarget(
  target: { tagName?: string; type?: string; isContentEditable?: boolean } | null,
) {
  if (!target?.tagName) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  return tag === "INPUT" && !NOT_TYPED.has((target.type ?? "text").toLowerCase());
}

/**
 * The shortcut a key press stands for, or null: never while typing in a field, never with a
 * modifier (Ctrl+D is the browser's bookmark, not a decline), never a held-down key repeating.
 */
export function shortcutFor(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  repeat?: boolean;
  target: Parameters<typeof isTypingTarget>[0];
}): InboxShortcut | null {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return null;
  if (isTypingTarget(event.target)) return null;
  return KEYS[event.key] ?? null;
}
