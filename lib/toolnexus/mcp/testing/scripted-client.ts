import { createClientFromDriver } from "../../client-from-driver";
import { createScriptedDriver } from "../../testing/scripted-driver";
import type { Client, LoopOptions } from "../../types";

export interface PlannedCall {
  id: string;
  name: string;
  args?: Record<string, unknown>;
}

/** A model that makes `calls` in its first turn and then says what the tools returned. */
export function clientCalling(calls: PlannedCall[], options: LoopOptions = {}): Client {
  const driver = createScriptedDriver((input) => {
    const results = input.messages.filter((m) => m.role === "tool");
    if (results.length === 0) return { toolCalls: calls };
    return { text: results.map((m) => (m.role === "tool" ? m.content : "")).join("\n---\n") };
  });
  return createClientFromDriver(driver, options);
}
