import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "@/lib/auth/session-user";
import { createThread } from "@/lib/db/chat-threads";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { loadOwnThread } from "./load-own-thread";

let db: Db;
let cleanup: () => Promise<void>;
const owner: SessionUser = { id: "u-owner", email: "owner@example.test", name: "Owner", role: "user" };
const admin: SessionUser = { id: "u-admin", email: "admin@example.test", name: "Admin", role: "admin" };

beforeAll(async () => {
  ({ db, drop: cleanup } = await createTestDatabase("sqlite"));
  for (const user of [owner, admin]) {
    await db.user.create({ data: { id: user.id, email: user.email, name: user.name, role: user.role } });
  }
});
afterAll(() => cleanup());

describe("loadOwnThread", () => {
  it("returns the owner's thread", async () => {
    const thread = await createThread({ db, userId: owner.id, title: "mine" });
    await expect(loadOwnThread({ actor: owner, threadId: thread.id }, { db })).resolves.toMatchObject({
      id: thread.id,
      title: "mine",
    });
  });

  it("tells everyone else, admins included, that the chat does not exist", async () => {
    const thread = await createThread({ db, userId: owner.id });
    const error = await loadOwnThread({ actor: admin, threadId: thread.id }, { db }).catch((e) => e);
    expect(isAppError(error, "not_found:thread")).toBe(true);
  });

  it("reports an unknown thread as not found", async () => {
    const error = await loadOwnThread({ actor: owner, threadId: "nope" }, { db }).catch((e) => e);
    expect(isAppError(error, "not_found:thread")).toBe(true);
  });
});
