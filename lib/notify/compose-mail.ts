import escapeHtml from "escape-html";
import type { MailBatch } from "@/lib/db/mail-items";
import { describeOrigin } from "@/lib/domain/request-origin";
import { defang } from "./defang";

type MailRequest = MailBatch["items"][number]["request"];

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

const KIND_LABEL: Record<string, string> = {
  approval: "Approval needed",
  input: "Input needed",
  question: "A question for you",
  authorization: "Sign-in needed",
};

/** A mail an escalation step sent says why it came (ADR 0093). */
const ESCALATION_LABEL = { reminder: "Reminder: ", escalated: "Escalated to you: ", none: "" } as const;

// Enough of a prompt to decide whether to open the request; the request's page shows it whole.
const PROMPT_MAX = 1_000;

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The prompt as a quote: its own lines kept, defanged, capped. */
function quotedLines(prompt: string): string[] {
  const text = defang(prompt).trim();
  const capped = text.length > PROMPT_MAX ? `${text.slice(0, PROMPT_MAX - 1)}…` : text;
  return capped.split(/\r?\n/).map((line) => line.trimEnd());
}

/** Who asked, in the mail's words; their names are typed by people, so defanged too. */
function askedBy(request: MailRequest): string {
  return defang(`Asked by ${describeOrigin(request.origin)}.`);
}

/** The kind, and the tool that asked (an API request has none: who asked says how it came). */
function heading(request: MailRequest): string {
  const kind = `${ESCALATION_LABEL[request.escalation ?? "none"]}${KIND_LABEL[request.kind] ?? "Request"}`;
  return request.origin.via === "api" ? kind : `${kind} · tool ${defang(request.toolName)}`;
}

function textEntry(request: MailRequest, appUrl: string): string {
  return [
    heading(request),
    `${askedBy(request)} What they wrote, as they wrote it:`,
    "",
    ...quotedLines(request.prompt).map((line) => (line ? `> ${line}` : ">")),
    "",
    `Open the request: ${appUrl}/requests/${request.id}`,
  ].join("\n");
}

function htmlEntry(request: MailRequest, appUrl: string): string {
  const quote = quotedLines(request.prompt).map(escapeHtml).join("<br>");
  return [
    `<p><strong>${escapeHtml(heading(request))}</strong></p>`,
    `<p>${escapeHtml(askedBy(request))} What they wrote, as they wrote it:</p>`,
    `<blockquote style="margin:0 0 1em;padding:0 0 0 1em;border-left:3px solid #bbb;color:#333">${quote}</blockquote>`,
    `<p><a href="${escapeHtml(`${appUrl}/requests/${request.id}`)}">Open the request</a></p>`,
  ].join("\n");
}

/**
 * The mail for one batch, as text and as HTML: what was asked, by whom (which person, through
 * which chat or API token), and a link to the request. The prompt is someone's words, not the
 * app's: it is quoted, escaped and defanged, so the one link in an entry is the app's own (ADR
 * 0059). Nothing else of the request goes in: not its arguments, not its data, not an
 * authorization link, so no secret or tool token can reach a mailbox.
 */
export function composeMail(requests: MailRequest[], appUrl: string): ComposedMail {
  const settings = `${appUrl}/settings`;
  const footer = `You get these mails because you can answer these requests. Choose "at once", "digest" or "off" at ${settings}.`;
  const only = requests.length === 1 ? requests[0] : undefined;
  const subject = only
    ? `${ESCALATION_LABEL[only.escalation ?? "none"]}${KIND_LABEL[only.kind] ?? "New request"}: “${oneLine(defang(only.prompt), 80)}”`
    : `${requests.length} requests wait for you`;
  const text = `${requests.map((request) => textEntry(request, appUrl)).join("\n\n---\n\n")}\n\n${footer}`;
  const html = [
    "<!doctype html>",
    '<html><body style="font-family:system-ui,sans-serif;line-height:1.4">',
    requests.map((request) => htmlEntry(request, appUrl)).join("\n<hr>\n"),
    `<p style="color:#666;font-size:smaller">${escapeHtml(footer)}</p>`,
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}
