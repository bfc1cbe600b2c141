import {
  type Attributes,
  context,
  createContextKey,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { AppError } from "@/lib/errors";
import type { Metric } from "@/lib/toolnexus/types";

// Spans of the engine's work: a run's segments (start, resume), its model and tool calls, parks
// and answers. Every span carries the run id, which is what links the segments one run spends
// on several instances. Without a registered tracer provider the API is a no-op, so this costs
// nothing unless tracing is configured. Attributes name things (tools, models, ids) and count
// tokens; they never carry prompts, arguments, answers or error messages.

const tracer = () => trace.getTracer("toolnexus");
const RUN_ID = createContextKey("toolnexus.run_id");
export const RUN_ID_ATTRIBUTE = "toolnexus.run_id";

function failureName(error: unknown): string {
  if (error instanceof AppError) return error.code;
  return error instanceof Error ? error.name : "Error";
}

/** Runs `work` inside an active span that ends with it and is marked failed when it throws. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const runId = context.active().getValue(RUN_ID);
  const all = typeof runId === "string" ? { [RUN_ID_ATTRIBUTE]: runId, ...attributes } : attributes;
  return tracer().startActiveSpan(name, { attributes: all }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: failureName(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** One segment of a run: every span started inside it, the loop's included, belongs to the run. */
export function inRunSegment<T>(runId: string, kind: "start" | "resume", work: () => Promise<T>): Promise<T> {
  return context.with(context.active().setValue(RUN_ID, runId), () =>
    inSpan(`toolnexus.${kind}`, {}, () => work()),
  );
}

/**
 * The loop reports each model and tool call once it settled (`onMetric`); the span is recorded
 * then, backdated to when the call began, under the segment that made it.
 */
export function recordLoopMetric(metric: Metric): void {
  // A run's own span is the segment's; its closing record adds nothing to it.
  if (metric.event === "run") return;
  const end = Date.now();
  const runId = context.active().getValue(RUN_ID);
  const attributes: Attributes =
    metric.event === "llm"
      ? {
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": metric.model,
          ...(metric.status === "ok"
            ? {
                "gen_ai.usage.input_tokens": metric.promptTokens,
                "gen_ai.usage.output_tokens": metric.completionTokens,
              }
            : {}),
        }
      : {
          "toolnexus.tool.name": metric.tool,
          "toolnexus.tool.pending": metric.pending === true,
          "toolnexus.attempt": metric.attempt,
        };
  if (typeof runId === "string") attributes[RUN_ID_ATTRIBUTE] = runId;
  const span = tracer().startSpan(metric.event === "llm" ? "toolnexus.model_call" : "toolnexus.tool_call", {
    startTime: end - metric.ms,
    attributes,
  });
  const failed = metric.event === "llm" ? metric.status === "error" : metric.isError;
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(end);
}
