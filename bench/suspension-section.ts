import type { BenchSection } from "./bench-section";
import { runLoopComparison } from "./loop-comparison";
import { aiSdkContender, httpFloorContender, toolnexusContender } from "./loop-contenders";

/** Results 2 in docs/benchmarks.md: the same scenario with one tool that needs a human answer, answered at once. */
export const suspensionSection: BenchSection = {
  name: "suspension",
  title: "Suspension in-process: one tool suspends and is approved at once",
  run: (context) =>
    runLoopComparison(context, {
      contenders: async (baseUrl) => [
        httpFloorContender(baseUrl),
        await toolnexusContender("toolnexus waitFor", baseUrl, { model: "http", suspend: "wait-for" }),
        await toolnexusContender("toolnexus halt+resume", baseUrl, { model: "http", suspend: "halt-resume" }),
        aiSdkContender("ai-sdk approval", baseUrl, { approval: true }),
      ],
      subject: "toolnexus waitFor",
      baseline: "ai-sdk approval",
      notes: [
        "toolnexus waitFor: the tool returns pending(), waitFor answers { ok: true } at once, the tool is retried with ctx.answer.",
        "toolnexus halt+resume: run() halts with a checkpoint, which goes through JSON text and client.resume (no database).",
        "ai-sdk approval: needsApproval: true; generateText returns a tool-approval-request, a second generateText gets the tool-approval-response.",
      ],
    }),
};
