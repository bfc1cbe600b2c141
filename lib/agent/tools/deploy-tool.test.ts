import { pendingOf } from "toolnexus";
import { describe, expect, it } from "vitest";
import { fillSummary, summaryText } from "@/lib/domain/request-summary";
import { createDeployTool, DEPLOY_APPROVAL } from "./deploy-tool";

const tool = createDeployTool();
const production = { service: "web", version: "v1.4", environment: "production" };

describe("deploy tool", () => {
  it("deploys at once wherever it is called: asking first is the approval gate's job", async () => {
    const staging = await tool.execute({ service: "api", version: "2.0", environment: "staging" });
    expect(staging.isError).toBe(false);
    expect(pendingOf(staging)).toBeUndefined();
    expect(staging.output).toMatch(/^Deployed api 2\.0 to staging \(deployment DEP-[0-9A-F]{8}\)\.$/);
    const prod = await tool.execute(production);
    expect(prod.output).toMatch(/^Deployed web v1\.4 to production \(deployment DEP-[0-9A-F]{8}\)\.$/);
  });

  it("is destructive, so a reviewer approves by default, and asks only about production", () => {
    expect(tool.annotations).toMatchObject({ destructiveHint: true });
    expect(tool.annotations?.readOnlyHint).toBeUndefined();
    expect(DEPLOY_APPROVAL.asksFor?.(production)).toBe(true);
    expect(DEPLOY_APPROVAL.asksFor?.({ ...production, environment: "staging" })).toBe(false);
    expect(DEPLOY_APPROVAL.prompt?.(production)).toBe("Approve deploying web v1.4 to production?");
  });

  it("says in one sentence what approving does, filled from its arguments", () => {
    const parts = fillSummary(DEPLOY_APPROVAL.summary!, production);
    expect(parts && summaryText(parts)).toBe("Deploy web v1.4 to production");
  });

  it("reports the same deployment for the same idempotency key", async () => {
    const first = await tool.execute(production, { idempotencyKey: "run-1:call-1" });
    const again = await tool.execute(production, { idempotencyKey: "run-1:call-1" });
    const other = await tool.execute(production, { idempotencyKey: "run-2:call-1" });
    expect(again.output).toBe(first.output);
    expect(other.output).not.toBe(first.output);
  });

  it("refuses malformed arguments", async () => {
    const bad = await tool.execute({ service: "web", version: "latest", environment: "production" });
    expect(bad.isError).toBe(true);
    expect(pendingOf(bad)).toBeUndefined();
    expect(bad.output).toMatch(/version/);
  });
});
