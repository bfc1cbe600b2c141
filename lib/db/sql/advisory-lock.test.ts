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
    const held = gate();
    const first = runUnlessLocked(database.db, "test-round", async () => {
      await held.opened;
      return "first";
    });
    // Wait until the first holds the lock: a body under another key runs meanwhile.
    await expect
      .poll(() => runUnlessLocked(other, "test-round", async () => "second"))
      .toEqual({ status: "busy" });
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
