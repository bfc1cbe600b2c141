import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEmailModeByUser } from "@/lib/db/notification-settings";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import type { Role } from "@/lib/domain/roles";
import { type MailCatcher, startMailCatcher } from "./mail-catcher";
import { readMailConfig } from "./mail-config";
import { createMailWorker } from "./mail-worker";
import { parkRequests } from "./testing/park-requests";

// A request addressed to someone away is mailed to their delegate too (ADR 0098), through a real
// SMTP server, on both databases: once each, never to the asker, as the delegate's setting says.

const HOUR = 3_600_000;

describe.each<TestProvider>(["sqlite", "postgres"])(
  "mail to the delegate of someone away on %s",
  (provider) => {
    let database: TestDatabase;
    let catcher: MailCatcher;
    beforeAll(async () => {
      database = await createTestDatabase(provider);
      catcher = await startMailCatcher();
    });
    afterAll(async () => {
      await catcher?.close();
      await database?.drop();
    });

    const db = () => database.db;
    const person = async (role: Role, name: string) => {
      const email = `${name}-${randomUUID()}@example.test`;
      const user = await db().user.create({ data: { role, email, name } });
      return { id: user.id, email };
    };
    const away = (userId: string, delegateId: string) =>
      db().absence.create({
        data: {
          userId,
          delegateId,
          startsAt: new Date(Date.now() - 60_000),
          endsAt: new Date(Date.now() + HOUR),
          createdById: userId,
        },
      });
    const mailTo = (email: string) => catcher.mails().filter((mail) => mail.to.includes(email));
    const tick = () =>
      createMailWorker({
        db: db(),
        instanceId: `mail-${randomUUID()}`,
        appUrl: "https://app.example.test",
        mail: readMailConfig({ TOOLNEXUS_SMTP_URL: `smtp://127.0.0.1:${catcher.port}` }),
        retry: { firstMs: 0, maxMs: 0, jitter: [1, 1] },
      }).tick();

    async function groupRequest(askerId: string, members: string[]) {
      const slug = `grp-${randomUUID().slice(0, 8)}`;
      await db().approverGroup.create({
        data: { slug, name: slug, members: { create: members.map((userId) => ({ userId })) } },
      });
      const [id] = await parkRequests(db(), askerId, [{ audience: "reviewers", prompt: "Refund 1234?" }]);
      await db().request.update({
        where: { id },
        data: { audience: "group", audienceGroup: slug, required: 1 },
      });
      return id!;
    }

    it("mails the owner's own request to them and to their delegate, once each", async () => {
      const [rita, sam, stranger] = await Promise.all([
        person("user", "rita"),
        person("user", "sam"),
        person("user", "stranger"),
      ]);
      await away(rita.id, sam.id);
      await parkRequests(db(), rita.id, [{ audience: "owner", prompt: "Which account?" }]);
      await tick();
      await tick();
      expect(mailTo(rita.email)).toHaveLength(1);
      expect(mailTo(sam.email)).toHaveLength(1);
      expect(mailTo(stranger.email)).toHaveLength(0);
    });

    it("a group's vote: the delegate once even when a member too; never the asker; as the delegate's setting says", async () => {
      const [rita, sam, asker, quiet, tom] = await Promise.all([
        person("user", "rita"),
        person("user", "sam"),
        person("user", "asker"),
        person("user", "quiet"),
        person("user", "tom"),
      ]);
      await away(rita.id, sam.id);
      await away(tom.id, asker.id);
      await setEmailModeByUser({ db: db(), userId: quiet.id, mode: "off" });
      await groupRequest(asker.id, [rita.id, sam.id, tom.id, asker.id]);
      const quietOne = await person("user", "away");
      await away(quietOne.id, quiet.id);
      await groupRequest(asker.id, [quietOne.id]);
      await tick();
      await tick();
      expect(mailTo(sam.email)).toHaveLength(1);
      expect(mailTo(rita.email)).toHaveLength(1);
      expect(mailTo(asker.email)).toHaveLength(0);
      expect(mailTo(quiet.email)).toHaveLength(0);
    });

    it("an approval to every reviewer goes to no one's delegate", async () => {
      const [asker, reviewer, user] = await Promise.all([
        person("user", "asker"),
        person("reviewer", "rev"),
        person("user", "plain"),
      ]);
      // A user cannot cover a reviewer; and even so, an approval to every reviewer names nobody.
      await db().absence.create({
        data: {
          userId: reviewer.id,
          delegateId: user.id,
          startsAt: new Date(Date.now() - 60_000),
          endsAt: new Date(Date.now() + HOUR),
          createdById: reviewer.id,
        },
      });
      await parkRequests(db(), asker.id, [{ audience: "reviewers", prompt: "Deploy?" }]);
      await tick();
      expect(mailTo(reviewer.email)).toHaveLength(1);
      expect(mailTo(user.email)).toHaveLength(0);
    });
  },
);
