import { describe, expect, it } from "vitest";
import { listArgumentChanges, readApprovalEdit } from "./approval-edit";

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

describe("listArgumentChanges", () => {
  it("lists each key whose approved value differs from what the form offered", () => {
    expect(
      listArgumentChanges({ schema }, { version: "1.4", env: "production" }, { version: "1.5", note: "ok" }),
    ).toEqual([
      { key: "version", before: "1.4", after: "1.5" },
      { key: "note", before: undefined, after: "ok" },
    ]);
  });

  it("compares nested arguments key by key", () => {
    const wrapped = {
      type: "object",
      properties: { arguments: { type: "object" }, note: { type: "string" } },
    };
    expect(
      listArgumentChanges(
        { schema: wrapped },
        { arguments: { service: "web", version: "v1" } },
        { arguments: { service: "web", version: "v2" }, note: "" },
      ),
    ).toEqual([{ key: "arguments.version", before: "v1", after: "v2" }]);
  });

  it("is empty when the approval was sent as offered, or offered no edit", () => {
    expect(listArgumentChanges({ schema }, { version: "1.4" }, { version: "1.4" })).toEqual([]);
    expect(listArgumentChanges(undefined, { version: "1.4" }, { version: "2" })).toEqual([]);
    expect(listArgumentChanges({ schema }, { version: "1.4" }, undefined)).toEqual([]);
  });
});
