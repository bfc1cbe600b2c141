/** The forms that ask for data; an approval's note is optional, so its card keeps focus where it was. */
const DATA_FORMS = [".tn-schema-form", ".tn-question-form", ".tn-json-form"];
const FIELD = DATA_FORMS.flatMap((form) =>
  ["input:not([type='hidden'])", "select", "textarea"].map((field) => `${form} ${field}:not([disabled])`),
).join(", ");

/**
 * Puts the cursor in a newly shown request's first field, so answering starts by typing. Focus
 * the person has put somewhere that still matters (a half-written message, another open form)
 * stays where it is: only a page with nothing focused, a disabled control (a form that was
 * just sent), or what `isIdle` says merely waits, gives it up.
 */
export function focusFirstField(
  container: Element,
  isIdle: (active: Element) => boolean = () => false,
): boolean {
  const active = document.activeElement;
  const idle =
    active === null ||
    active === document.body ||
    (active instanceof HTMLButtonElement && active.disabled) ||
    isIdle(active);
  if (!idle) return false;
  const field = container.querySelector<HTMLElement>(FIELD);
  if (!field) return false;
  // The page is scrolled to the request separately, with the motion the person prefers.
  field.focus({ preventScroll: true });
  return true;
}
