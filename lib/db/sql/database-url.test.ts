import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveDatabaseUrl, sqliteFileOf } from "./database-url";

describe("resolveDatabaseUrl", () => {
  it("defaults to the embedded SQLite file under the working directory", () => {
    const expected = { provider: "sqlite", url: `file:${path.resolve("data/toolnexus.db")}` };
    expect(resolveDatabaseUrl(undefined)).toEqual(expected);
    expect(resolveDatabaseUrl("  ")).toEqual(expected);
  });

  it("makes relative SQLite paths absolute and keeps absolute ones and query strings", () => {
    expect(resolveDatabaseUrl("file:./tmp/a.db?mode=x")).toEqual({
      provider: "sqlite",
      url: `file:${path.resolve("tmp/a.db")}?mode=x`,
    });
    expect(resolveDatabaseUrl("file:/var/db/b.db").url).toBe("file:/var/db/b.db");
    expect(sqliteFileOf("file:/var/db/b.db?mode=x")).toBe("/var/db/b.db");
  });

  it("passes PostgreSQL URLs through", () => {
    for (const url of ["postgres://u@h:5432/d", "postgresql://u@h/d?schema=app"]) {
      expect(resolveDatabaseUrl(url)).toEqual({ provider: "postgres", url });
    }
  });

  it("rejects other databases", () => {
    expect(() => resolveDatabaseUrl("mysql://u@h/d")).toThrow(/DATABASE_URL/);
  });
});
