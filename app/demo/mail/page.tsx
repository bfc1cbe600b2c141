import { notFound } from "next/navigation";
import { formatUtc } from "@/components/admin/format-utc";
import { isDemoMode } from "@/lib/auth/demo-mode";
import { requirePageUser } from "@/lib/auth/guards";
import { hasRole } from "@/lib/domain/roles";
import { appBaseUrl } from "@/lib/oauth/app-url";
import { loadCaughtMail, splitAppLinks } from "./_lib/caught-mail";

export const metadata = { title: "Caught mail · toolnexus" };

/** The mail's text with the app's own links clickable; anything else stays text. */
function Linked({ text, appUrl }: { text: string; appUrl: string }) {
  return splitAppLinks(text, appUrl).map((part, index) =>
    "link" in part ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder.
      <a key={index} href={part.link}>
        {part.link}
      </a>
    ) : (
      part.text
    ),
  );
}

/**
 * What the local mail catcher caught (scripts/mail-catcher.ts), newest first: so the demo shows
 * its email without a mail account. Only where a catcher is configured, and only in demo mode or
 * for admins; each person sees the mail addressed to them, admins everyone's.
 */
export default async function CaughtMailPage() {
  const user = await requirePageUser("/demo/mail");
  const mails = loadCaughtMail({
    viewer: user,
    file: process.env.TOOLNEXUS_MAIL_CATCHER_FILE?.trim(),
    demoMode: isDemoMode(),
  });
  if (mails === null) notFound();
  const appUrl = appBaseUrl();
  const everyone = hasRole(user.role, "admin");
  return (
    <section className="stack" aria-labelledby="caught-mail-title">
      <h1 id="caught-mail-title" className="page-title">
        Caught mail
      </h1>
      <p className="muted">
        Email the app sent to the local mail catcher, which delivers nothing anywhere:{" "}
        {everyone ? "everyone's, as you are an admin" : "the mail addressed to you"}. Newest first; the links
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
              <Linked text={mail.text} appUrl={appUrl} />
            </pre>
          </li>
        ))}
      </ul>
    </section>
  );
}
