import type { MailBatch } from "@/lib/db/mail-items";

type MailRequest = MailBatch["items"][number]["request"];

const KIND_LABEL: Record<string, string> = {
  approval: "Approval needed",
  input: "Input needed",
  question: "A question for you",
  authorization: "Sign-in needed",
};

function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function entry(request: MailRequest, appUrl: string): string {
  return `${KIND_LABEL[request.kind] ?? "Request"} (${request.toolName}): ${oneLine(request.prompt, 500)}\n${appUrl}/requests/${request.id}`;
}

/**
 * The mail for one batch: what was asked, by which tool, and a link to the request. Nothing
 * else of the request goes in: not its arguments, not its data, not an authorization link, so
 * no secret or tool token can reach a mailbox. The link opens only for people allowed to answer.
 */
export function composeMail(requests: MailRequest[], appUrl: string): { subject: string; text: string } {
  const footer = `\n\nYou get these mails because you can answer these requests. Choose "at once", "digest" or "off" at ${appUrl}/settings.`;
  if (requests.length === 1) {
    const [request] = requests as [MailRequest];
    return {
      subject: `${KIND_LABEL[request.kind] ?? "New request"}: ${oneLine(request.prompt, 80)}`,
      text: `${entry(request, appUrl)}${footer}`,
    };
  }
  return {
    subject: `${requests.length} requests wait for you`,
    text: `${requests.map((request) => entry(request, appUrl)).join("\n\n")}${footer}`,
  };
}
