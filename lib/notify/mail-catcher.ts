import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
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
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** RFC 2047 encoded words, as nodemailer writes a subject that is not plain ASCII. */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_match, encoding: string, data: string) =>
    encoding.toUpperCase() === "B"
      ? Buffer.from(data, "base64").toString("utf8")
      : decodeQuotedPrintable(data.replace(/_/g, " ")),
  );
}

/** Enough of RFC 5322 for the single-part text mails this app sends. */
export function parseMail(raw: string): Pick<CaughtMail, "subject" | "text"> {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = headers.get("content-transfer-encoding")?.toLowerCase();
  const text =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(body)
      : encoding === "base64"
        ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
        : body;
  return { subject: decodeHeader(headers.get("subject") ?? ""), text: text.replace(/\r\n/g, "\n").trimEnd() };
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
        const mail: CaughtMail = {
          id: randomUUID(),
          receivedAt: new Date().toISOString(),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          ...parseMail(Buffer.concat(chunks).toString("utf8")),
        };
        caught.push(mail);
        if (file) appendFileSync(file, `${JSON.stringify(mail)}\n`);
        callback();
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
