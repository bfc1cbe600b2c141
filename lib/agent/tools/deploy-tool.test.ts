import Ajv from "ajv";
import { pendingOf } from "toolnexus";
import { describe, expect, it } from "vitest";
import { createDeployTool, DEPLOY_APPROVAL_SCHEMA } from "./deploy-tool";

const now = new Date("2030-01-01T12:00:00.000Z");
const tool = createDeployTool({ clock: () => now });
const production = { service: "web", version: "v1.4", environment: "production" };

describe("deploy tool", () => {
  it("deploys to staging at once", async () => {
    const result = await tool.execute({ service: "api", version: "2.0", environment: "staging" });
    expect(result.isError).toBe(false);
    expect(pendingOf(result)).toBeUndefined();
    expect(result.output).toMatch(/^Deployed api 2\.0 to staging \(deployment DEP-[0-9A-F]{8}\)\.$/);
  });

  it("parks a production deploy for a reviewer for 24 hours, offering version and note", async () => {
    const request = pendingOf(await tool.execute(production));
    expect(request).toMatchObject({
      kind: "approval",
      prompt: "Approve deploying web v1.4 to production?",
      expiresAt: "2030-01-02T12:00:00.000Z",
      data: { service: "web", version: "v1.4", environment: "production", values: { version: "v1.4" } },
    });
    expect(request?.data?.schema).toEqual(DEPLOY_APPROVAL_SCHEMA);
  });

  it("offers a schema that really rejects a bad version and accepts a note", () => {
    const validate = new Ajv().compile(DEPLOY_APPROVAL_SCHEMA);
    expect(validate({ version: "v1.5", note: "ship it" })).toBe(true);
    expect(validate({ version: "latest" })).toBe(false);
    expect(validate({ note: "no version" })).toBe(false);
  });

  it("deploys the reviewer's edited version and records the note on the retry", async () => {
    const answer = { id: "r1", ok: true, data: { version: "v1.4.1", note: "hotfix included" } };
    const result = await tool.execute(production, { answer, idempotencyKey: "run-1:call-1" });
    expect(result.isError).toBe(false);
    expect(result.output).toContain("Deployed web v1.4.1 to production");
    expect(result.output).toContain("changed the version from v1.4");
    expect(result.output).toContain('Reviewer\'s note: "hotfix included"');
  });

  it("reports the same deployment for the same idempotency key", async () => {
    const ctx = { answer: { id: "r1", ok: true }, idempotencyKey: "run-1:call-1" };
    const first = await tool.execute(production, ctx);
    const again = await tool.execute(production, ctx);
    const other = await tool.execute(production, { ...ctx, idempotencyKey: "run-2:call-1" });
    expect(again.output).toBe(first.output);
    expect(other.output).not.toBe(first.output);
  });

  it("refuses malformed arguments and malformed approval data", async () => {
    const bad = await tool.execute({ service: "web", version: "latest", environment: "production" });
    expect(bad.isError).toBe(true);
    expect(pendingOf(bad)).toBeUndefined();
    expect(bad.output).toMatch(/version/);

    const tampered = await tool.execute(production, { answer: { id: "r", ok: true, data: { version: 7 } } });
    expect(tampered.isError).toBe(true);
    expect(tampered.output).toMatch(/invalid data/);
  });
});
