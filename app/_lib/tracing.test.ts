import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { RUN_ID_ATTRIBUTE } from "@/lib/engine/tracing";
import { registerTracing, tracingConfigured } from "./register-tracing";
import { newUser, parkRequest, withTestEngine } from "./test-engine";

// The app's own registration (@vercel/otel), with an in-memory exporter instead of OTLP.
const exporter = new InMemorySpanExporter();

describe("tracing", () => {
  let db: Db;
  let engine: Engine;
  beforeAll(async () => {
    await registerTracing(
      { OTEL_SERVICE_NAME: "toolnexus-test" },
      { spanProcessors: [new SimpleSpanProcessor(exporter)] },
    );
  });
  withTestEngine((started) => {
    db = started.db;
    engine = started.engine;
  });

  it("is off unless an OTLP endpoint is configured", () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(
      true,
    );
  });

  it("records each segment, model call, tool call, park and answer of a run, all carrying its run id", async () => {
    exporter.reset();
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const { requestId, runId } = await parkRequest(
      { db, engine },
      { owner, text: "deploy v1.4 to production" },
    );
    // Approved as asked: the request's own prefilled values, whatever its approval form holds.
    const parked = await db.request.findUniqueOrThrow({ where: { id: requestId } });
    const asked = (parked.data as { values: Record<string, unknown> }).values;
    await engine.answerRequest({ requestId, answer: { ok: true, data: asked }, actor: reviewer });
    await engine.idle();
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("done");

    const spans = exporter.getFinishedSpans();
    const named = (name: string) => spans.filter((span) => span.name === name);
    const [start] = named("toolnexus.start");
    const [resume] = named("toolnexus.resume");
    expect(start).toBeDefined();
    expect(resume).toBeDefined();
    expect(named("toolnexus.park")).toHaveLength(1);
    expect(named("toolnexus.answer")).toHaveLength(1);
    expect(named("toolnexus.answer")[0]!.attributes["toolnexus.request_id"]).toBe(requestId);

    const toolCalls = named("toolnexus.tool_call");
    expect(
      toolCalls.map((span) => [
        span.attributes["toolnexus.tool.name"],
        span.attributes["toolnexus.tool.pending"],
      ]),
    ).toEqual([
      ["deploy", true],
      ["deploy", false],
    ]);
    expect(named("toolnexus.model_call").length).toBeGreaterThanOrEqual(2);
    expect(named("toolnexus.model_call")[0]!.attributes["gen_ai.request.model"]).toBe("toolnexus-demo");

    // The answer happened outside any run segment; everything else is inside one of the run's.
    const runSpans = spans.filter((span) => span.name !== "toolnexus.answer");
    for (const span of runSpans) expect(span.attributes[RUN_ID_ATTRIBUTE]).toBe(runId);
    const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
    expect(parentOf(toolCalls[0]!)).toBe(start!.spanContext().spanId);
    expect(parentOf(named("toolnexus.park")[0]!)).toBe(start!.spanContext().spanId);
    expect(parentOf(toolCalls[1]!)).toBe(resume!.spanContext().spanId);

    // Names and counts only: no prompt, argument or answer text in any attribute.
    const values = JSON.stringify(spans.map((span) => span.attributes));
    expect(values).not.toContain("production");
    expect(values).not.toContain("v1.4");
  });
});
