import { describe, expect, it } from "vitest";
import { readApprovalEdit } from "./approval-edit";

const schema = {
  type: "object",
  properties: { version: { type: "string" }, note: { type: "string" } },
};

describe("readApprovalEdit", () => {
  it("offers nothing to edit without a schema", () => {
    expect(readApprovalEdit({ amount: 5 }, { amount: 5 })).toBeUndefined();
    expect(readApprovalEdit(undefined, {})).toBeUndefined();
  });

  it("pre-fills from the tool arguments, only with keys the schema knows", () => {
    expect(readApprovalEdit({ schema }, { version: "1.4.2", env: "production" })).toEqual({
      schema,
      initial: { version: "1.4.2" },
    });
  });

  it("prefers explicit values offered by the request", () => {
    const edit = readApprovalEdit({ schema, values: { version: "2.0.0", note: "" } }, { version: "1.4.2" });
    expect(edit?.initial).toEqual({ version: "2.0.0", note: "" });
  });
});
