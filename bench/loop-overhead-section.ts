import type { BenchSection } from "./bench-section";
import { runLoopComparison } from "./loop-comparison";
import { aiSdkContender, httpFloorContender, toolnexusContender } from "./loop-contenders";

/** Results 1 in docs/benchmarks.md: one prompt, two parallel trivial tools, two model round trips. */
export const loopOverheadSection: BenchSection = {
  name: "loop-overhead",
  title: "Loop overhead: two parallel tool calls, two model round trips",
  run: (context) =>
    runLoopComparison(context, {
      contenders: async (baseUrl) => [
        httpFloorContender(baseUrl),
        await toolnexusContender("toolnexus", baseUrl, { model: "http", suspend: "none" }),
        await toolnexusContender("toolnexus+ai-sdk-model", baseUrl, { model: "ai-sdk", suspend: "none" }),
        aiSdkContender("ai-sdk", baseUrl, { approval: false }),
      ],
      subject: "toolnexus",
      baseline: "ai-sdk",
      notes: [
        "toolnexus = createClient({ baseUrl, style: 'openai' }).run; ai-sdk = generateText + stepCountIs(5) via @ai-sdk/openai-compatible.",
        "toolnexus+ai-sdk-model = the toolnexus loop driving the same @ai-sdk/openai-compatible model (createClient({ languageModel })).",
        "overhead = contender minus http-floor (two raw fetch calls with the same bodies), paired per iteration.",
      ],
    }),
};
