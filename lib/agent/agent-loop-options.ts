import type { LoopOptions } from "toolnexus";
import { recordLoopMetric } from "@/lib/engine/tracing";
import { formatDecline } from "./format-decline";

/** The loop options of every agent run the app drives: one decline wording, one span per call. */
export const AGENT_LOOP_OPTIONS: LoopOptions = { formatDecline, onMetric: recordLoopMetric };
