import { describe, expect, it } from "vitest";
import { PRODUCTION_ENTRY_MARK, productionEntryWarning } from "./production-entry";

describe("the production entry's mark", () => {
  it("warns about a production process that server.mjs did not start", () => {
    expect(productionEntryWarning({ NODE_ENV: "production" })).toMatch(/not started by the production entry/);
    expect(productionEntryWarning({ NODE_ENV: "production", [PRODUCTION_ENTRY_MARK]: "0" })).not.toBeNull();
  });

  it("stays quiet under server.mjs and outside production", () => {
    expect(productionEntryWarning({ NODE_ENV: "production", [PRODUCTION_ENTRY_MARK]: "1" })).toBeNull();
    expect(productionEntryWarning({ NODE_ENV: "development" })).toBeNull();
    expect(productionEntryWarning({ NODE_ENV: "test" })).toBeNull();
  });

  it("is the mark server.mjs sets before Next starts", async () => {
    const { readFile } = await import("node:fs/promises");
    const entry = await readFile(new URL("../../server.mjs", import.meta.url), "utf8");
    const marked = entry.indexOf(`process.env.${PRODUCTION_ENTRY_MARK} = "1"`);
    expect(marked).toBeGreaterThan(-1);
    expect(marked).toBeLessThan(entry.indexOf("next({"));
  });
});
