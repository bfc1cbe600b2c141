// The inbox's keyboard works on the markup the list and the detail pane already render, found by
// these hooks, so those components stay plain and know nothing of the keyboard.
const ROW = ".inbox-list .inbox-row";
const DETAIL = ".inbox-pane-detail";

export function rows(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(ROW)];
}

/** The row the keyboard is on: the one holding focus, else the one shown beside the list. */
export function currentRow(list: HTMLElement[]): number {
  const focused = list.findIndex((row) => row.contains(document.activeElement));
  if (focused >= 0) return focused;
  return list.findIndex((row) => row.classList.contains("inbox-row-selected"));
}

export function inDetail<T extends HTMLElement>(selector: string): T | null {
  return document.querySelector<T>(`${DETAIL} ${selector}`);
}

export function rowLink(row: HTMLElement | undefined): HTMLElement | null {
  return row?.querySelector<HTMLElement>("a") ?? null;
}

export function isShown(row: HTMLElement): boolean {
  return row.classList.contains("inbox-row-selected");
}

/** Moves the highlight to `row` and shows it in the detail pane (the link navigates in place). */
export function highlight(row: HTMLElement | undefined): boolean {
  const link = rowLink(row);
  if (!link) return false;
  link.focus();
  if (!isShown(row!)) link.click();
  return true;
}

/** Whether the pane shows the request `id` (its article is labelled by its title). */
function paneShows(id: string): boolean {
  return Boolean(inDetail(`[aria-labelledby="request-title-${id}"]`));
}

// Polling rather than a MutationObserver: the pane is replaced wholesale by navigation, and a
// few checks a second for a moment after one key press cost nothing.
function waitFor(condition: () => boolean, then: () => void, timeoutMs = 15_000): void {
  const started = Date.now();
  const tick = () => {
    if (condition()) then();
    else if (Date.now() - started < timeoutMs) window.setTimeout(tick, 50);
  };
  tick();
}

/** Runs `action` on `row`'s request once the pane shows it, opening it first if need be. */
export function onceShown(row: HTMLElement, action: () => void): void {
  const id = row.dataset.requestId ?? "";
  if (!isShown(row)) highlight(row);
  waitFor(() => paneShows(id) && isShown(row), action);
}

/**
 * After a decision sent from the pane, moves on to `nextId` once the pane shows the outcome. A
 * refusal (an alert in the pane) keeps the reviewer where they are, with its message in view.
 */
export function advanceWhenDecided(decidedId: string, nextId: string | undefined): void {
  waitFor(
    () =>
      !paneShows(decidedId) ||
      Boolean(inDetail('section[aria-label="Answer"]')) ||
      Boolean(inDetail('[role="alert"]')),
    () => {
      if (inDetail('[role="alert"]') && paneShows(decidedId)) return;
      const next = nextId ? document.querySelector<HTMLElement>(`${ROW}[data-request-id="${nextId}"]`) : null;
      if (next) highlight(next);
      else rowLink(rows()[0])?.focus();
    },
  );
}

/** The request to move on to after deciding the row at `at`: the one below, else the one above. */
export function neighbourId(list: HTMLElement[], at: number): string | undefined {
  return (list[at + 1] ?? list[at - 1])?.dataset.requestId;
}

/**
 * The field `e` goes to: the one the approval's schema makes most likely to change, else the
 * first one the tool explains (a description or help text under it), else the first editable.
 */
export function likeliestField(): HTMLElement | null {
  // The form names the field its schema makes most likely to change (likely-field.ts).
  const named = inDetail('[data-shortcut="approval"]')?.getAttribute("data-likely-field");
  const likely = named ? document.getElementById(named) : null;
  if (likely && !(likely as HTMLInputElement).disabled) return likely;
  const fields = [
    ...document.querySelectorAll<HTMLElement>(
      `${DETAIL} [data-shortcut="approval"] form :is(input, select, textarea):not([type="hidden"]):not(:disabled)`,
    ),
  ];
  const explained = fields.find((field) =>
    (field.getAttribute("aria-describedby") ?? "")
      .split(/\s+/)
      .filter((id) => id && !id.endsWith("__error"))
      .some((id) => (document.getElementById(id)?.textContent ?? "").trim() !== ""),
  );
  return explained ?? fields[0] ?? null;
}
