import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate } from "../testing/gate";
import { createTestDatabase, type TestDatabase, type TestProvider } from "../testing/test-database";
import { runUnlessLocked } from "./advisory-lock";

describe.each<TestProvider>(["sqlite", "postgres"])("runUnlessLocked on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("runs one body at a time under a key, across clients, and skips the others at once", async () => {
    const other = database.connect();
    const entered = gate();
    const held = gate();
    const first = runUnlessLocked(database.db, "test-round", async () => {
      entered.open();
      await held.opened;
      return "first";
    });
    // Only once the first body runs does the first hold the lock. (Polling with a second body
    // instead could take the lock itself at the moment the first asks, and make the first busy.)
    await entered.opened;
    expect(await runUnlessLocked(other, "test-round", async () => "second")).toEqual({
      status: "busy",
    });
    // A body under another key runs meanwhile.
    expect(await runUnlessLocked(other, "another-round", async () => "third")).toEqual({
      status: "ran",
      value: "third",
    });
    held.open();
    expect(await first).toEqual({ status: "ran", value: "first" });
    expect(await runUnlessLocked(other, "test-round", async () => "second")).toEqual({
      status: "ran",
      value: "second",
    });
  });

  it("lets go of the lock when its body fails", async () => {
    await expect(
      runUnlessLocked(database.db, "failing-round", async () => {
        throw new Error("the round failed");
      }),
    ).rejects.toThrow("the round failed");
    expect(await runUnlessLocked(database.connect(), "failing-round", async () => 1)).toEqual({
      status: "ran",
      value: 1,
    });
  });
});
