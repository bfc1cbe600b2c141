import { notFound } from "next/navigation";
import { formatUtc } from "@/components/admin/format-utc";
import { isDemoMode } from "@/lib/auth/demo-mode";
import { requirePageUser } from "@/lib/auth/guards";
import { hasRole } from "@/lib/domain/roles";
import { readCaughtMail } from "@/lib/notify/mail-catcher";

export const metadata = { title: "Caught mail · toolnexus" };

/** The mail's text with its http(s) links clickable; anything else stays text. */
function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s]+)/g);
  return parts.map((part, index) =>
    index % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder.
      <a key={index} href={part}>
        {part}
      </a>
    ) : (
      part
    ),
  );
}

/**
 * What the local mail catcher caught (scripts/mail-catcher.ts), newest first: so the demo shows
 * its email without a mail account. Only where a catcher is configured, and only in demo mode or
 * for admins: it lists everyone's mail.
 */
export default async function CaughtMailPage() {
  const user = await requirePageUser("/demo/mail");
  const file = process.env.TOOLNEXUS_MAIL_CATCHER_FILE?.trim();
  if (!file || !(isDemoMode() || hasRole(user.role, "admin"))) notFound();
  const mails = readCaughtMail(file);
  return (
    <section className="stack" aria-labelledby="caught-mail-title">
      <h1 id="caught-mail-title" className="page-title">
        Caught mail
      </h1>
      <p className="muted">
        Email the app sent to the local mail catcher, which delivers nothing anywhere. Newest first; the links
        open each request for whoever may answer it.
      </p>
      {mails.length === 0 && <p>No mail yet. Ask for a production deploy in the chat to make one.</p>}
      <ul className="stack caught-mail">
        {mails.map((mail) => (
          <li
            key={mail.id}
            className="card stack"
            aria-label={`Mail to ${mail.to.join(", ")}: ${mail.subject}`}
          >
            <h2>{mail.subject}</h2>
            <p className="muted">
              To {mail.to.join(", ")} · <time dateTime={mail.receivedAt}>{formatUtc(mail.receivedAt)}</time>
            </p>
            <pre className="caught-mail-text">
              <Linked text={mail.text} />
            </pre>
          </li>
        ))}
      </ul>
    </section>
  );
}
