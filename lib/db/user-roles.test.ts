import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/domain/roles";
import type { DbClient } from "./db-types";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";
import { countAdmins, updateUserRoleById } from "./user-roles";

const root = path.resolve(import.meta.dirname, "../..");

/** A separate Node process that changes roles on command (see testing/change-role-in-child.ts). */
function startRoleChanger(url: string) {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "lib/db/testing/change-role-in-child.ts", url],
    { cwd: root, stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    send: (line: string) => child.stdin.write(`${line}\n`),
    async next(): Promise<string> {
      const { value, done } = await lines.next();
      if (done) throw new Error("the role changer exited early");
      return value;
    },
    stop: () => child.stdin.end(),
  };
}

let counter = 0;

async function createUser(db: DbClient, role: Role): Promise<string> {
  counter += 1;
  const id = `u-${role}-${counter}`;
  await db.user.create({ data: { id, email: `${id}@example.test`, role } });
  return id;
}

async function roleOf(db: DbClient, id: string): Promise<string> {
  return (await db.user.findUniqueOrThrow({ where: { id }, select: { role: true } })).role;
}

async function auditOf(db: DbClient, targetId: string) {
  return db.auditLog.findMany({
    where: { targetType: "user", targetId },
    select: { actorId: true, action: true, detail: true },
    orderBy: { createdAt: "asc" },
  });
}

describe.each<TestProvider>(["sqlite", "postgres"])("user roles on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("changes a role and records who changed it from what to what", async () => {
    const { db } = database;
    const admin = await createUser(db, "admin");
    const user = await createUser(db, "user");

    expect(await updateUserRoleById({ db, userId: user, role: "reviewer", actorId: admin })).toEqual({
      outcome: "changed",
      from: "user",
      to: "reviewer",
    });
    expect(await roleOf(db, user)).toBe("reviewer");
    expect(await auditOf(db, user)).toEqual([
      { actorId: admin, action: "user.role_changed", detail: { from: "user", to: "reviewer" } },
    ]);
  });

  it("writes nothing when the role is already the requested one, or the user is unknown", async () => {
    const { db } = database;
    const admin = await createUser(db, "admin");
    const reviewer = await createUser(db, "reviewer");

    expect(await updateUserRoleById({ db, userId: reviewer, role: "reviewer", actorId: admin })).toEqual({
      outcome: "unchanged",
    });
    expect(await updateUserRoleById({ db, userId: "no-such-user", role: "admin", actorId: admin })).toEqual({
      outcome: "not_found",
    });
    expect(await auditOf(db, reviewer)).toEqual([]);
    expect(await auditOf(db, "no-such-user")).toEqual([]);
  });

  it("refuses to demote the only admin left, and writes nothing", async () => {
    const temp = await createTestDatabase(provider);
    try {
      const { db } = temp;
      const only = await createUser(db, "admin");
      // An actor whose own admin role was taken away after the request was authorised.
      const former = await createUser(db, "user");
      expect(await countAdmins({ db })).toBe(1);

      for (const role of ["reviewer", "user"] as const) {
        expect(await updateUserRoleById({ db, userId: only, role, actorId: former })).toEqual({
          outcome: "last_admin",
        });
      }
      expect(await roleOf(db, only)).toBe("admin");
      expect(await auditOf(db, only)).toEqual([]);

      // With a second admin the same demotion goes through.
      await updateUserRoleById({ db, userId: former, role: "admin", actorId: only });
      expect(await updateUserRoleById({ db, userId: only, role: "user", actorId: former })).toMatchObject({
        outcome: "changed",
      });
      expect(await countAdmins({ db })).toBe(1);
    } finally {
      await temp.drop();
    }
  });

  it("lets exactly one of two admins demoting each other at the same moment win", async () => {
    // Two separate processes, as two app servers would be: within one process SQLite's busy
    // wait would block the very event loop that has to commit the other transaction.
    const temp = await createTestDatabase(provider);
    const children = [startRoleChanger(temp.url), startRoleChanger(temp.url)];
    try {
      await Promise.all(children.map((child) => child.next()));
      for (let round = 0; round < 10; round += 1) {
        // A clean slate per round: the rule counts every admin in the table.
        await temp.db.auditLog.deleteMany();
        await temp.db.user.deleteMany();
        const a = await createUser(temp.db, "admin");
        const b = await createUser(temp.db, "admin");

        children[0]!.send(`${a} ${b} user`);
        children[1]!.send(`${b} ${a} user`);
        const outcomes = (await Promise.all(children.map((child) => child.next()))).map(
          (line) => JSON.parse(line) as { outcome: string },
        );

        expect(outcomes.map((o) => o.outcome).sort()).toEqual(["changed", "last_admin"]);
        expect(await countAdmins({ db: temp.db })).toBe(1);
        const demoted = outcomes[0]!.outcome === "changed" ? b : a;
        expect(await roleOf(temp.db, demoted)).toBe("user");
        expect(await temp.db.auditLog.count()).toBe(1);
      }
    } finally {
      for (const child of children) child.stop();
      await temp.drop();
    }
  });
});
