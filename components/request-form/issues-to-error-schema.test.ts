import { describe, expect, it } from "vitest";
import { issuesToErrorSchema } from "./issues-to-error-schema";

describe("issuesToErrorSchema", () => {
  it("nests messages under the fields their JSON pointers address", () => {
    const tree = issuesToErrorSchema([
      { path: "/passenger/name", message: "is required" },
      { path: "/passenger/name", message: "is too short" },
      { path: "/date", message: "must be a date" },
      { path: "", message: "has an unknown key" },
      { path: "/a~1b", message: "escaped" },
    ]);
    expect(tree).toEqual({
      __errors: ["has an unknown key"],
      passenger: { name: { __errors: ["is required", "is too short"] } },
      date: { __errors: ["must be a date"] },
      "a/b": { __errors: ["escaped"] },
    });
  });
});
