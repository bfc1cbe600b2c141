import type { Answer, Checkpoint, Client, ResumeOptions, RunOptions, RunResult, StreamEvent } from "../types";

export type RunMode = "run" | "stream";
export const RUN_MODES: RunMode[] = ["run", "stream"];

export interface Outcome {
  result: RunResult;
  /** Stream events in order (empty in "run" mode). */
  events: StreamEvent[];
}

export async function collect(stream: AsyncIterable<StreamEvent>): Promise<Outcome> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`stream ended with ${last?.type ?? "nothing"} instead of done`);
  if (events.filter((event) => event.type === "done").length !== 1)
    throw new Error("more than one done event");
  return { result: last.result, events };
}

/** Runs the same prompt through `client.run` or `client.stream`, so one test covers both. */
export async function runIn(
  mode: RunMode,
  client: Client,
  prompt: string,
  options?: RunOptions,
): Promise<Outcome> {
  if (mode === "run") return { result: await client.run(prompt, options), events: [] };
  return collect(client.stream(prompt, options));
}

export async function resumeIn(
  mode: RunMode,
  client: Client,
  checkpoint: Checkpoint,
  answers: Answer | Answer[],
  options?: ResumeOptions,
): Promise<Outcome> {
  if (mode === "run") return { result: await client.resume(checkpoint, answers, options), events: [] };
  return collect(client.resumeStream(checkpoint, answers, options));
}
