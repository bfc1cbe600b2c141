import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { listWebhookEndpointViews } from "@/lib/db/webhook-endpoints";
import { toPublicError } from "@/lib/errors";
import { openWebhookSecret } from "@/lib/notify/webhook-secret";
import {
  addWebhookEndpoint,
  removeWebhookEndpoint,
  replayWebhookDelivery,
  setWebhookEndpointDisabled,
  type WebhookDeps,
} from "./manage-webhooks";

const keys = { encryption: randomBytes(32), state: randomBytes(32) };

describe.each<TestProvider>(["sqlite", "postgres"])("managing webhook endpoints on %s", (provider) => {
  let database: TestDatabase;
  let db: Db;
  let deps: WebhookDeps;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    db = database.db as Db;
    deps = { db, keys: () => keys, allowPrivate: false };
  });
  afterAll(async () => {
    await database?.drop();
  });

  const refusal = (promise: Promise<unknown>) => promise.then(() => null, toPublicError);
  const input = { url: "https://hooks.example.test/in", description: "ops", events: ["request.created"] };

  it("registers an endpoint with a secret shown once and stored sealed, and audits it", async () => {
    const admin = await newUser(db, "admin");
    const added = await addWebhookEndpoint({ actor: admin, input }, deps);
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: added.id } });
    expect(row.secretEnc).not.toContain(added.secret.slice("whsec_".length));
    expect(openWebhookSecret(added.id, row.secretEnc, keys)).toBe(added.secret);
    const views = await listWebhookEndpointViews({ db });
    expect(JSON.stringify(views)).not.toContain(added.secret);
    expect(views.find((view) => view.id === added.id)).toMatchObject({
      url: input.url,
      events: ["request.created"],
    });
    const audit = await db.auditLog.findMany({ where: { targetId: added.id } });
    expect(audit).toMatchObject([{ action: "webhook.added", actorId: admin.id }]);
    expect(JSON.stringify(audit)).not.toContain(added.secret);
  });

  it("refuses other roles, bad URLs and no events, storing nothing", async () => {
    const admin = await newUser(db, "admin");
    const before = await db.webhookEndpoint.count();
    for (const role of ["user", "reviewer"] as const) {
      expect(
        await refusal(addWebhookEndpoint({ actor: await newUser(db, role), input }, deps)),
      ).toMatchObject({
        code: "forbidden:role",
      });
    }
    expect(
      await refusal(
        addWebhookEndpoint({ actor: admin, input: { ...input, url: "file:///etc/passwd" } }, deps),
      ),
    ).toMatchObject({ code: "bad_request:input", issues: [{ path: "/url" }] });
    expect(
      await refusal(
        addWebhookEndpoint({ actor: admin, input: { ...input, url: "http://127.0.0.1:9/" } }, deps),
      ),
    ).toMatchObject({ code: "bad_request:input", message: expect.stringMatching(/private network/) });
    expect(
      await refusal(addWebhookEndpoint({ actor: admin, input: { ...input, events: [] } }, deps)),
    ).toMatchObject({
      code: "bad_request:input",
      issues: [{ path: "/events" }],
    });
    expect(
      await refusal(
        addWebhookEndpoint({ actor: admin, input: { ...input, events: ["user.deleted"] } }, deps),
      ),
    ).toMatchObject({ code: "bad_request:input" });
    expect(await db.webhookEndpoint.count()).toBe(before);
    // A local receiver is fine where the setting allows it.
    await expect(
      addWebhookEndpoint(
        { actor: admin, input: { ...input, url: "http://127.0.0.1:9/" } },
        { ...deps, allowPrivate: true },
      ),
    ).resolves.toMatchObject({ id: expect.any(String) });
  });

  it("disables, enables and removes endpoints, and refuses unknown ones and other roles", async () => {
    const admin = await newUser(db, "admin");
    const { id } = await addWebhookEndpoint({ actor: admin, input }, deps);
    await setWebhookEndpointDisabled({ actor: admin, input: { id, disabled: true } }, deps);
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).disabled).toBe(true);
    expect(
      await refusal(
        setWebhookEndpointDisabled(
          { actor: await newUser(db, "reviewer"), input: { id, disabled: false } },
          deps,
        ),
      ),
    ).toMatchObject({ code: "forbidden:role" });
    await setWebhookEndpointDisabled({ actor: admin, input: { id, disabled: false } }, deps);
    await removeWebhookEndpoint({ actor: admin, input: { id } }, deps);
    expect(await db.webhookEndpoint.count({ where: { id } })).toBe(0);
    expect(await refusal(removeWebhookEndpoint({ actor: admin, input: { id } }, deps))).toMatchObject({
      code: "not_found:webhook",
    });
    expect(await refusal(replayWebhookDelivery({ actor: admin, input: { id: "nope" } }, deps))).toMatchObject(
      {
        code: "not_found:webhook_delivery",
      },
    );
    expect(
      await refusal(replayWebhookDelivery({ actor: await newUser(db, "user"), input: { id: "nope" } }, deps)),
    ).toMatchObject({ code: "forbidden:role" });
  });
});
