import { Annotation, Command, END, interrupt, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { Message } from "toolnexus";
import { benchModelReply } from "./bench-agent";

/** When, in `performance.now()` time, the peer's tool suspended and ran again with the answer. */
export interface PeerMarks {
  suspendedAt?: number;
  retriedAt?: number;
}

/**
 * When LangGraph writes a step's checkpoint: "async" (its default) while the next step already
 * runs, "sync" before the next step starts. "sync" is the like-for-like peer of the engine, which
 * commits an answer before the tool runs again.
 */
export type PeerDurability = "async" | "sync";

const State = Annotation.Root({
  messages: Annotation<Message[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

/**
 * The same agent as the engine's bench agent, as a LangGraph graph: a model node driven by the
 * same in-process reply function, and a tool node whose tool waits for a reviewer through
 * `interrupt()`. Marks are kept per thread id, as the engine's are per run.
 */
export function createPeerGraph(checkpointer: BaseCheckpointSaver, marks: Map<string, PeerMarks>) {
  return new StateGraph(State)
    .addNode("model", (state) => {
      const reply = benchModelReply(state.messages);
      const message: Message =
        "text" in reply
          ? { role: "assistant", content: reply.text }
          : {
              role: "assistant",
              content: "",
              toolCalls: reply.toolCalls.map((call, index) => ({ id: `call-${index}`, ...call })),
            };
      return { messages: [message] };
    })
    .addNode("tools", (state, config) => {
      const last = state.messages.at(-1);
      const calls = last?.role === "assistant" ? (last.toolCalls ?? []) : [];
      const threadId = String(config.configurable?.thread_id);
      const mark = marks.get(threadId) ?? {};
      marks.set(threadId, mark);
      // On the first pass interrupt() stores the graph's state and throws; on resume it returns
      // the answer and the node runs again from the top, as the engine's tool runs again.
      if (mark.suspendedAt === undefined) mark.suspendedAt = performance.now();
      const answer = interrupt({ kind: "approval", prompt: "Approve the deploy step?" }) as { ok?: boolean };
      if (answer?.ok !== true) throw new Error(`thread ${threadId}: resumed without approval`);
      mark.retriedAt = performance.now();
      return {
        messages: calls.map(
          (call): Message => ({
            role: "tool",
            toolCallId: call.id,
            name: call.name,
            content: "deployed",
            isError: false,
          }),
        ),
      };
    })
    .addEdge(START, "model")
    .addConditionalEdges("model", (state) => {
      const last = state.messages.at(-1);
      return last?.role === "assistant" && (last.toolCalls?.length ?? 0) > 0 ? "tools" : END;
    })
    .addEdge("tools", "model")
    .compile({ checkpointer });
}

export type PeerGraph = ReturnType<typeof createPeerGraph>;

export { Command };
