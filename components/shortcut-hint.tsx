/**
 * The key that presses a button, shown on it where the key works (the inbox, see inbox.css) and
 * never on a touch screen. Hidden from assistive technology: the button's name stays its words,
 * and the inbox's `?` dialog lists every key.
 */
export function ShortcutHint({ keys }: { keys: string }) {
  return (
    <span className="kbd-hint" aria-hidden="true">
      {keys}
    </span>
  );
}
