import nodemailer, { type Transporter } from "nodemailer";

type Env = Record<string, string | undefined>;

/**
 * Email comes from the environment (README, "Email"): `TOOLNEXUS_SMTP_URL` (smtp:// or smtps://,
 * credentials in the URL) turns it on, `TOOLNEXUS_MAIL_FROM` is the sender,
 * `TOOLNEXUS_MAIL_DIGEST_MINUTES` the length of a digest's window and
 * `TOOLNEXUS_MAIL_HOURLY_LIMIT` how many of one person's requests are mailed at once in any 60
 * minutes (the rest wait for the digest). Without an SMTP URL no mail is sent.
 */
export interface MailSettings {
  url: string;
  from: string;
  digestWindowMs: number;
  hourlyLimit: number;
}

export interface MailConfig {
  transport: Pick<Transporter, "sendMail">;
  from: string;
  digestWindowMs: number;
  /** Requests of one person mailed at once in any 60 minutes; past it, their mail goes in digests. */
  hourlyLimit: number;
}

const DEFAULT_FROM = "toolnexus <toolnexus@localhost>";

export function readMailSettings(env: Env = process.env): MailSettings | null {
  const url = env.TOOLNEXUS_SMTP_URL?.trim();
  if (!url) return null;
  const protocol = new URL(url).protocol;
  if (protocol !== "smtp:" && protocol !== "smtps:") {
    throw new Error("TOOLNEXUS_SMTP_URL must be an smtp:// or smtps:// URL");
  }
  const minutes = Number(env.TOOLNEXUS_MAIL_DIGEST_MINUTES ?? 60);
  if (!Number.isFinite(minutes) || minutes <= 0) {
    throw new Error("TOOLNEXUS_MAIL_DIGEST_MINUTES must be a positive number of minutes");
  }
  const hourlyLimit = Number(env.TOOLNEXUS_MAIL_HOURLY_LIMIT ?? 30);
  if (!Number.isInteger(hourlyLimit) || hourlyLimit < 0) {
    throw new Error("TOOLNEXUS_MAIL_HOURLY_LIMIT must be a whole number of requests (0 or more)");
  }
  return {
    url,
    from: env.TOOLNEXUS_MAIL_FROM?.trim() || DEFAULT_FROM,
    digestWindowMs: minutes * 60_000,
    hourlyLimit,
  };
}

/** The settings with a nodemailer transport to their server; null when mail is off. */
export function readMailConfig(env: Env = process.env): MailConfig | null {
  const settings = readMailSettings(env);
  if (!settings) return null;
  return {
    // Pooled, so a burst (a new approval for every reviewer) reuses connections; bounded, so an
    // attempt ends well inside the worker's lease on the mail it sends.
    transport: nodemailer.createTransport(settings.url, {
      pool: true,
      maxConnections: 2,
      connectionTimeout: 20_000,
      greetingTimeout: 20_000,
      socketTimeout: 30_000,
    } as never),
    from: settings.from,
    digestWindowMs: settings.digestWindowMs,
    hourlyLimit: settings.hourlyLimit,
  };
}
