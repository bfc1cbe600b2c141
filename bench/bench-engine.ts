import { randomUUID } from "node:crypto";
import { createEngine } from "@/lib/engine/create-engine";
import type { Engine } from "@/lib/engine/engine-types";
import { createMemoryEventBus, type EventBus } from "@/lib/engine/event-bus";
import { createPostgresEventBus } from "@/lib/engine/postgres-event-bus";
import { createBenchAgent, type ToolMarks } from "./bench-agent";
import type { BenchDatabase } from "./bench-database";

export interface BenchEngine {
  engine: Engine;
  bus: EventBus;
  marks: Map<string, ToolMarks>;
  close(): Promise<void>;
}

/**
 * The engine wired as the web app wires it (same bus per provider, timers started), with the
 * bench agent in place of a hosted model.
 */
export async function startBenchEngine(database: BenchDatabase): Promise<BenchEngine> {
  const instanceId = `bench-${process.pid}-${randomUUID().slice(0, 8)}`;
  const bus: EventBus =
    database.provider === "postgres"
      ? await createPostgresEventBus({ connectionString: database.url, instanceId })
      : createMemoryEventBus();
  const agent = createBenchAgent();
  const engine = createEngine({
    db: database.db,
    bus,
    instanceId,
    createClient: agent.createClient,
    createToolkit: agent.createToolkit,
  });
  await engine.start();
  return {
    engine,
    bus,
    marks: agent.marks,
    async close() {
      await engine.stop();
      await bus.close();
    },
  };
}
