import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

// The quick start's mail catcher: a real SMTP server on this machine that accepts every mail
// and keeps it, so email works offline and the demo page (/demo/mail) can list what arrived.
// Also what the tests send to. It never relays anything anywhere.

export interface CaughtMail {
  id: string;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** The HTML part, when the mail has one. */
  html: string | null;
}

/** The subject and both bodies of a raw RFC 5322 message, decoded by mailparser. */
export async function parseMail(
  raw: Buffer | string,
): Promise<Pick<CaughtMail, "subject" | "text" | "html">> {
  const parsed = await simpleParser(raw, { skipTextToHtml: true, skipImageLinks: true });
  return {
    subject: parsed.subject ?? "",
    text: (parsed.text ?? "").replace(/\r\n/g, "\n").trimEnd(),
    html: typeof parsed.html === "string" ? parsed.html : null,
  };
}

export interface MailCatcher {
  port: number;
  /** Every mail caught so far, oldest first. */
  mails(): CaughtMail[];
  close(): Promise<void>;
}

/** Starts the catcher on `port` (0: any free one); with `file`, each mail is also appended there as a JSON line. */
export async function startMailCatcher({
  port = 0,
  host = "127.0.0.1",
  file,
}: {
  port?: number;
  host?: string;
  file?: string;
} = {}): Promise<MailCatcher> {
  const caught: CaughtMail[] = [];
  if (file) mkdirSync(path.dirname(file), { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    size: 1_000_000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        parseMail(Buffer.concat(chunks)).then(
          (parsed) => {
            const mail: CaughtMail = {
              id: randomUUID(),
              receivedAt: new Date().toISOString(),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              ...parsed,
            };
            caught.push(mail);
            if (file) appendFileSync(file, `${JSON.stringify(mail)}\n`);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    mails: () => [...caught],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The mails a catcher wrote to `file`, newest first; none when it has caught nothing yet. */
export function readCaughtMail(file: string, limit = 200): CaughtMail[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as CaughtMail];
      } catch {
        return [];
      }
    })
    .reverse()
    .slice(0, limit);
}
