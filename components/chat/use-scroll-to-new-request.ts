"use client";

import { useEffect, useRef } from "react";
import { focusFirstField } from "@/components/request-form/focus-first-field";
import type { ChatMessage } from "@/lib/domain/chat-message";

/** The ids of the requests whose cards are in the conversation, oldest first. */
export function requestCardIds(messages: ChatMessage[]): string[] {
  return messages.flatMap((message) =>
    message.parts.flatMap((part) => (part.type === "data-request" ? [part.data.view.id] : [])),
  );
}

/** The element a request's card is drawn as (see PendingCard). */
export function requestCardSelector(requestId: string): string {
  return `[data-request-id="${CSS.escape(requestId)}"]`;
}

/**
 * Brings a request card that arrives while the page is open into view: on a phone it lands
 * below the screen while the message box only says it waits. Cards already there when the page
 * loaded, and cards already in view, leave the page where it is. A new card's first field gets
 * the cursor unless the person is typing elsewhere.
 */
export function useScrollToNewRequest(
  messages: ChatMessage[],
  composer: React.RefObject<HTMLElement | null>,
) {
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    const ids = requestCardIds(messages);
    if (seen.current === null) {
      seen.current = new Set(ids);
      return;
    }
    const known = seen.current;
    const fresh = ids.filter((id) => !known.has(id));
    for (const id of fresh) known.add(id);
    if (fresh.length === 0) return;
    const card = document.querySelector(requestCardSelector(fresh[0]!));
    if (!card) return;
    // The cursor goes to the request's first field: the message box only waits meanwhile (unless
    // a message is being written in it), and so does a card that has been answered.
    focusFirstField(card, (active) => {
      const typing = active instanceof HTMLTextAreaElement && active.value.trim() !== "";
      return (
        (composer.current?.contains(active) === true && !typing) ||
        active.closest(".pending-card:not(.pending-card-open)") !== null
      );
    });
    const { top, bottom } = card.getBoundingClientRect();
    // The message box is sticky at the bottom, so the part behind it is not in view either.
    const visibleBottom = window.innerHeight - (composer.current?.offsetHeight ?? 0);
    if (top >= 0 && bottom <= visibleBottom) return;
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    card.scrollIntoView({ block: "start", behavior: reduce ? "auto" : "smooth" });
  }, [messages, composer]);
}
