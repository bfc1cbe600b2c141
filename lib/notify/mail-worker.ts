import { randomUUID } from "node:crypto";
import { type BackoffPolicy, backoffDelayMs } from "toolnexus/backoff";
import type { DbClient } from "@/lib/db/db-types";
import { DECIDED_STEP, getDecisionByRequest, listDecidedMailRecipient } from "@/lib/db/decided-mail";
import { takeMailAskerSend } from "@/lib/db/mail-asker-sends";
import {
  claimMailBatch,
  getMailBatch,
  listDueMail,
  type MailBatch,
  recordMailItems,
} from "@/lib/db/mail-items";
import { claimMailNoticeById, fanOutMailNoticeById, listDueMailNotices } from "@/lib/db/mail-notices";
import { listMailRecipientsByRequest } from "@/lib/db/mail-recipients";
import { logger } from "@/lib/log/logger";
import { composeDecidedMail } from "./compose-decided-mail";
import { composeMail } from "./compose-mail";
import type { MailConfig } from "./mail-config";
import { pollPasses } from "./polling-pass";

export interface MailWorkerOptions {
  db: DbClient;
  instanceId: string;
  /** Null when no SMTP server is configured: notices are then closed without mail. */
  mail: MailConfig | null;
  /** The app's public origin, for the links. */
  appUrl: string;
  /** The clock; tests move it past a digest window instead of waiting. */
  now?: () => Date;
  retry?: BackoffPolicy;
  maxAttempts?: number;
  pollMs?: number;
  leaseMs?: number;
}

export interface MailWorker {
  /** One pass: fans out new notices, then sends what is due; returns how many mails went. */
  tick(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/** The end of the digest window `now` is in: every item of one window waits for the same moment. */
export function digestDueAt(now: Date, windowMs: number): Date {
  return new Date((Math.floor(now.getTime() / windowMs) + 1) * windowMs);
}

/**
 * Emails people about new requests (ADR 0037). Every app process runs one; notices, single mails
 * and digests are each claimed with one conditional update and a lease, so with several
 * processes each mail is sent by one of them, and what a dead process had claimed is sent by
 * another once its lease lapses. The state lives in the database, so a restart neither loses
 * nor repeats a digest; the one repeat left is a mail the SMTP server took just before the
 * process died, before it could record that.
 */
export function createMailWorker(options: MailWorkerOptions): MailWorker {
  const {
    db,
    instanceId,
    mail,
    appUrl,
    now = () => new Date(),
    retry = { firstMs: 30_000, maxMs: 3_600_000, jitter: [0.8, 1.2] },
    maxAttempts = 8,
    pollMs = 2_000,
    leaseMs = 120_000,
  } = options;

  const fanOut = async () => {
    for (const notice of await listDueMailNotices({ db, now: now(), limit: 50 })) {
      if (!(await claimMailNoticeById({ db, id: notice.id, owner: instanceId, now: now(), leaseMs })))
        continue;
      const decided = notice.stepId === DECIDED_STEP;
      const { askerId, recipients } = !mail
        ? { askerId: null, recipients: [] }
        : decided
          ? await listDecidedMailRecipient({ db, requestRowId: notice.requestRowId })
          : await listMailRecipientsByRequest({
              db,
              requestRowId: notice.requestRowId,
              stepId: notice.stepId,
            });
      // Decided here, once per request, on a count in the database: once its asker had the
      // hourly limit's worth mailed at once in the last 60 minutes, a request that would be
      // mailed at once waits for the digest instead (ADR 0104). (A worker that dies before the
      // notice is marked done counts it twice: the safe way.)
      const at = now();
      const held =
        askerId !== null &&
        recipients.some((recipient) => recipient.mode === "instant") &&
        !(await takeMailAskerSend({ db, askerId, perHour: mail!.hourlyLimit, at }));
      const items = recipients.flatMap((recipient) => {
        // Past the hourly limit, a decided mail is not sent: the chat shows the decision.
        if (recipient.mode === "off" || (held && decided)) return [];
        const mode = held ? "digest" : recipient.mode;
        return [
          {
            userId: recipient.userId,
            mode,
            dueAt: mode === "digest" ? digestDueAt(at, mail!.digestWindowMs) : at,
          },
        ];
      });
      await fanOutMailNoticeById({
        db,
        id: notice.id,
        owner: instanceId,
        requestRowId: notice.requestRowId,
        stepId: notice.stepId,
        items,
      });
    }
  };

  const send = async (config: MailConfig, batchId: string): Promise<boolean> => {
    const batch = await getMailBatch({ db, batchId });
    if (!batch) return false;
    const [decidedItem] = batch.items.filter((item) => item.decided);
    if (decidedItem) return sendDecided(config, batch, decidedItem);
    // A request answered (or expired) before its mail went needs nobody any more.
    const closed = batch.items.filter((item) => !item.request.open).map((item) => item.id);
    await recordMailItems({ db, batchId, itemIds: closed, outcome: { status: "skipped" } });
    const open = batch.items.filter((item) => item.request.open);
    if (open.length === 0 || !batch.user.email) {
      await recordMailItems({
        db,
        batchId,
        itemIds: open.map((item) => item.id),
        outcome: { status: "skipped" },
      });
      return false;
    }
    const { subject, text, html } = composeMail(
      open.map((item) => item.request),
      appUrl,
    );
    return deliver(config, batch, open, { subject, text, html });
  };

  /** A decided mail goes alone (its item is always "instant"), to the asker. */
  const sendDecided = async (
    config: MailConfig,
    batch: MailBatch,
    item: MailBatch["items"][number],
  ): Promise<boolean> => {
    const decision = await getDecisionByRequest({ db, requestRowId: item.request.id });
    if (!decision || !batch.user.email) {
      await recordMailItems({
        db,
        batchId: batch.batchId,
        itemIds: [item.id],
        outcome: { status: "skipped" },
      });
      return false;
    }
    return deliver(config, batch, [item], composeDecidedMail(item.request, decision, appUrl));
  };

  const deliver = async (
    config: MailConfig,
    batch: MailBatch,
    open: MailBatch["items"],
    { subject, text, html }: { subject: string; text: string; html: string },
  ): Promise<boolean> => {
    const { batchId } = batch;
    const itemIds = open.map((item) => item.id);
    try {
      await config.transport.sendMail({ from: config.from, to: batch.user.email, subject, text, html });
      await recordMailItems({ db, batchId, itemIds, outcome: { status: "sent", at: now() } });
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message.slice(0, 300) : "the mail could not be sent";
      const attempts = Math.max(...open.map((item) => item.attempts));
      logger.warn({ batchId, userId: batch.user.id, attempts }, "mail could not be sent");
      await recordMailItems({
        db,
        batchId,
        itemIds,
        outcome:
          attempts >= maxAttempts
            ? { status: "failed", error: message }
            : {
                status: "retry",
                error: message,
                dueAt: new Date(now().getTime() + backoffDelayMs(retry, attempts - 1)),
              },
      });
      return false;
    }
  };

  const tick = async (): Promise<number> => {
    await fanOut();
    if (!mail) return 0;
    const due = await listDueMail({ db, now: now(), limit: 100 });
    const targets = [
      ...due.instantIds.map((itemId) => ({ itemId })),
      ...due.digestUserIds.map((digestOf) => ({ digestOf })),
    ];
    let sent = 0;
    for (const target of targets) {
      const batchId = `mail_${randomUUID()}`;
      if ((await claimMailBatch({ db, batchId, target, now: now(), leaseMs })) === 0) continue;
      if (await send(mail, batchId)) sent += 1;
    }
    return sent;
  };

  const polling = pollPasses({ pass: tick, pollMs, failure: "mail pass failed" });
  return { tick, start: polling.start, stop: polling.stop };
}
