import escapeHtml from "escape-html";
import type { MailBatch } from "@/lib/db/mail-items";
import type { ComposedMail } from "./compose-mail";
import { defang } from "./defang";

type MailRequest = MailBatch["items"][number]["request"];

export interface Decision {
  ok: boolean;
  reason: string | null;
  /** Who decided; null when no one did (it expired, or its chat was stopped without a name). */
  actorName: string | null;
}

/** The outcome in words, as the request's card says it. */
function outcomeOf(request: MailRequest, decision: Decision): string {
  if (!decision.ok)
    return decision.reason === "expired"
      ? "expired"
      : decision.reason === "cancelled"
        ? "was cancelled"
        : "was declined";
  return request.kind === "approval" ? "was approved" : "was answered";
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The mail that tells an asker their request was decided: the outcome, who decided, what it
 * asked (defanged, one line) and a link to the request. Nothing of its arguments or answer data
 * goes in, so no secret can reach a mailbox.
 */
export function composeDecidedMail(request: MailRequest, decision: Decision, appUrl: string): ComposedMail {
  const asked = oneLine(defang(request.prompt), 200);
  const outcome = outcomeOf(request, decision);
  const by = decision.actorName ? ` by ${defang(decision.actorName)}` : "";
  const sentence = `Your request “${asked}” ${outcome}${by}.`;
  const link = `${appUrl}/requests/${request.id}`;
  const footer = `You get this mail because you chose to hear when your requests are decided. Change it at ${appUrl}/settings.`;
  const subject = `Your request ${outcome}: “${oneLine(asked, 80)}”`;
  const text = [sentence, "", `Open the request: ${link}`, "", footer].join("\n");
  const html = [
    "<!doctype html>",
    '<html><body style="font-family:system-ui,sans-serif;line-height:1.4">',
    `<p>${escapeHtml(sentence)}</p>`,
    `<p><a href="${escapeHtml(link)}">Open the request</a></p>`,
    `<p style="color:#666;font-size:smaller">${escapeHtml(footer)}</p>`,
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}
