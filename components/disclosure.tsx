"use client";

import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";

interface DisclosureProps {
  /** The button's text; the button says whether the panel is shown through `aria-expanded`. */
  label: ReactNode;
  /** Whether the panel starts shown (on the chat index, the list is the page's content). */
  initiallyOpen?: boolean;
  className: string;
  toggleClassName?: string;
  children: ReactNode;
}

/**
 * A button that shows and hides the panel after it. Only narrow screens hide the panel: the
 * stylesheet that owns `className` shows it whole, and hides the button, on wide ones, so a
 * desktop page looks as it would without the disclosure. Escape closes the panel and gives
 * focus back to the button; following a link in it closes it too.
 */
export function Disclosure({
  label,
  initiallyOpen = false,
  className,
  toggleClassName,
  children,
}: DisclosureProps) {
  const [open, setOpen] = useState(initiallyOpen);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const pathname = usePathname();
  const shownAt = useRef(pathname);
  useEffect(() => {
    if (pathname === shownAt.current) return;
    shownAt.current = pathname;
    setOpen(false);
  }, [pathname]);
  const closeOnEscape = (event: React.KeyboardEvent) => {
    // A hidden button means a wide screen, where the panel is always shown.
    if (event.key !== "Escape" || !open || button.current?.offsetParent === null) return;
    setOpen(false);
    button.current?.focus();
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className={`disclosure-toggle ${toggleClassName ?? ""}`.trim()}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((shown) => !shown)}
        onKeyDown={closeOnEscape}
      >
        {label}
      </button>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Escape is caught for the whole panel, whose own controls keep their roles. */}
      <div id={panelId} className={className} data-open={open ? "" : undefined} onKeyDown={closeOnEscape}>
        {children}
      </div>
    </>
  );
}
