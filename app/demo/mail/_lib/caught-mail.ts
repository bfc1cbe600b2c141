import type { SessionUser } from "@/lib/auth/session-user";
import { hasRole } from "@/lib/domain/roles";
import { type CaughtMail, readCaughtMail } from "@/lib/notify/mail-catcher";

/** A piece of a mail's text: plain, or a link to one of the app's own pages. */
export type MailTextPart = { text: string } | { link: string };

/**
 * What `/demo/mail` shows `viewer`: the mail addressed to them, or every mail for an admin.
 * Null where there is no page: no catcher file, or outside demo mode for anyone but an admin.
 */
export function loadCaughtMail({
  viewer,
  file,
  demoMode,
}: {
  viewer: Pick<SessionUser, "email" | "role">;
  file: string | undefined;
  demoMode: boolean;
}): CaughtMail[] | null {
  const admin = hasRole(viewer.role, "admin");
  if (!file || !(demoMode || admin)) return null;
  const mails = readCaughtMail(file);
  if (admin) return mails;
  const own = viewer.email?.trim().toLowerCase();
  if (!own) return [];
  return mails.filter((mail) => mail.to.some((address) => address.trim().toLowerCase() === own));
}

/**
 * A mail's text with the app's own links (`appUrl/…`) as links and everything else as text: an
 * address someone wrote into a prompt is never made clickable here, defanged or not.
 */
export function splitAppLinks(text: string, appUrl: string): MailTextPart[] {
  return text
    .split(/(https?:\/\/[^\s<>"]+)/g)
    .filter((part) => part !== "")
    .map((part) => (part.startsWith(`${appUrl}/`) ? { link: part } : { text: part }));
}
