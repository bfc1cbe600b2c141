import type { BenchSection } from "./bench-section";
import { durableParkResumeSection } from "./durable-park-resume-section";
import { historySection } from "./history-section";
import { inboxAtScaleSection } from "./inbox-at-scale-section";
import { insightsSection } from "./insights-section";
import { langgraphSection } from "./langgraph-section";
import { loopOverheadSection } from "./loop-overhead-section";
import { mcpSection } from "./mcp-section";
import { mcpWaitingSection } from "./mcp-waiting-section";
import { memoryAtRestSection } from "./memory-at-rest-section";
import { memoryParkedSection } from "./memory-parked-section";
import { parkedRunsSection } from "./parked-runs-section";
import { sseStreamsSection } from "./sse-streams-section";
import { suspensionSection } from "./suspension-section";

/** Every section of `npm run bench`, in run order; add new ones here. */
export const sections: BenchSection[] = [
  loopOverheadSection,
  suspensionSection,
  memoryAtRestSection,
  durableParkResumeSection,
  langgraphSection,
  historySection,
  memoryParkedSection,
  parkedRunsSection,
  inboxAtScaleSection,
  insightsSection,
  sseStreamsSection,
  mcpSection,
  mcpWaitingSection,
];
