import type { BenchSection } from "./bench-section";
import { runLoopComparison } from "./loop-comparison";
import { aiSdkContender, httpFloorContender, LOOP_SCENARIO, toolnexusContender } from "./loop-contenders";
import { REFERENCE_DIR_VARIABLE, referenceContender } from "./reference-contender";

/** Results 1 in docs/benchmarks.md: one prompt, two parallel trivial tools, two model round trips. */
export const loopOverheadSection: BenchSection = {
  name: "loop-overhead",
  title: "Loop overhead: two parallel tool calls, two model round trips",
  run: (context) => {
    // The reference JS port runs only when the person running the bench points at a copy of it.
    const referenceDir = process.env[REFERENCE_DIR_VARIABLE]?.trim() || undefined;
    return runLoopComparison(context, {
      contenders: async (baseUrl) => [
        httpFloorContender(baseUrl),
        await toolnexusContender("toolnexus", baseUrl, { model: "http", suspend: "none" }),
        await toolnexusContender("toolnexus+ai-sdk-model", baseUrl, { model: "ai-sdk", suspend: "none" }),
        aiSdkContender("ai-sdk", baseUrl, { approval: false }),
        ...(referenceDir ? [await referenceContender(referenceDir, baseUrl, LOOP_SCENARIO)] : []),
      ],
      subject: "toolnexus",
      baseline: "ai-sdk",
      ...(referenceDir ? { alsoAgainst: [{ name: "reference", targetMax: 1 }] } : {}),
      notes: [
        "toolnexus = createClient({ baseUrl, style: 'openai' }).run; ai-sdk = generateText + stepCountIs(5) via @ai-sdk/openai-compatible.",
        "toolnexus+ai-sdk-model = the toolnexus loop driving the same @ai-sdk/openai-compatible model (createClient({ languageModel })).",
        "overhead = contender minus http-floor (two raw fetch calls with the same bodies), paired per iteration.",
        referenceDir
          ? `reference = the reference JS port's createClient({ baseUrl, style: 'openai' }).run, loaded from ${REFERENCE_DIR_VARIABLE}.`
          : `reference JS port: not run (set ${REFERENCE_DIR_VARIABLE} to a copy of its js/ folder).`,
      ],
    });
  },
};
