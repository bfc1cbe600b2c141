/** The forms that ask for data; an approval's note is optional, so its card keeps focus where it was. */
const DATA_FORMS = [".tn-schema-form", ".tn-question-form", ".tn-json-form"];
const FIELD = DATA_FORMS.flatMap((form) =>
  ["input:not([type='hidden'])", "select", "textarea"].map((field) => `${form} ${field}:not([disabled])`),
).join(", ");

/**
 * Puts the cursor in a newly shown request's first field, so answering starts by typing; the
 * page has already been scrolled to the request. Focus the person has put somewhere else (a
 * half-written message, another form) stays where it is: only a page with nothing focused, or
 * with focus in `idleArea` (the chat's message box, which waits while a request is open), moves.
 */
export function focusFirstField(container: Element, idleArea?: Element | null): boolean {
  const active = document.activeElement;
  const idle = active === null || active === document.body || (idleArea?.contains(active) ?? false);
  if (!idle) return false;
  if (idleArea && active instanceof HTMLTextAreaElement && active.value.trim() !== "") return false;
  const field = container.querySelector<HTMLElement>(FIELD);
  field?.focus({ preventScroll: true });
  return field !== null && field !== undefined;
}
