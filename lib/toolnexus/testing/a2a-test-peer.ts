import type { AddressInfo } from "node:net";
import { type AgentCard, type Part, type Task, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";

// A real A2A agent for tests, built from the SDK's own server pieces over real HTTP. What it
// does with a task is named by the sent Request's `data.peer`: complete with data or with text,
// reject, fail, work until released or cancelled, or ask a question of its own.

export type PeerBehaviour = "data" | "text" | "reject" | "fail" | "hold" | "ask" | "auth" | "message";

export interface TestPeer {
  url: string;
  cardUrl: string;
  /** Tasks started (not counting answers to its questions). */
  started: number;
  /** The Authorization header of every JSON-RPC call. */
  authorizations: Array<string | undefined>;
  /** What the first message of each task carried: its text and its data part. */
  received: Array<{ text?: string; data?: unknown; contextId: string }>;
  /** Completes every held task with `{ released: true }`. */
  release(): void;
  close(): Promise<void>;
}

const text = (value: string): Part => ({
  content: { $case: "text", value },
  metadata: undefined,
  filename: "",
  mediaType: "text/plain",
});
const data = (value: Record<string, unknown>): Part => ({
  content: { $case: "data", value },
  metadata: undefined,
  filename: "",
  mediaType: "application/json",
});

const link = (value: string): Part => ({
  content: { $case: "url", value },
  metadata: undefined,
  filename: "",
  mediaType: "",
});

function partValue(parts: Part[], kind: "text" | "data"): unknown {
  return parts.find((part) => part.content?.$case === kind)?.content?.value;
}

export async function startTestPeer(options: { streaming: boolean }): Promise<TestPeer> {
  const held = new Map<string, () => void>();
  const contexts = new Map<string, string>();

  function status(ctx: RequestContext, bus: ExecutionEventBus, state: TaskState, parts: Part[] = []) {
    const message = parts.length
      ? {
          messageId: crypto.randomUUID(),
          contextId: ctx.contextId,
          taskId: ctx.taskId,
          role: 2,
          parts,
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        }
      : undefined;
    bus.publish(
      AgentEvent.statusUpdate({
        taskId: ctx.taskId,
        contextId: ctx.contextId,
        status: { state, message, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  }

  function complete(ctx: RequestContext, bus: ExecutionEventBus, parts: Part[]) {
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId: ctx.taskId,
        contextId: ctx.contextId,
        artifact: {
          artifactId: "result",
          name: "result",
          description: "",
          parts,
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    status(ctx, bus, TaskState.TASK_STATE_COMPLETED);
  }

  const executor: AgentExecutor = {
    async execute(ctx, bus) {
      const message = ctx.request.message!;
      const sent = partValue(message.parts, "data") as Record<string, any> | undefined;
      if (ctx.task) {
        // The asker answers the question this peer asked: it completes with that answer.
        bus.publish(AgentEvent.task(ctx.task));
        complete(ctx, bus, [data({ answered: sent?.answer })]);
        return bus.finished();
      }
      peer.started += 1;
      contexts.set(ctx.taskId, ctx.contextId);
      peer.received.push({
        text: partValue(message.parts, "text") as string | undefined,
        data: sent,
        contextId: ctx.contextId,
      });
      const behaviour = sent?.data?.peer as PeerBehaviour;
      if (behaviour === "message") {
        // A reply with no task at all, as an agent that answers at once may give.
        bus.publish(
          AgentEvent.message({
            messageId: crypto.randomUUID(),
            contextId: ctx.contextId,
            taskId: "",
            role: 2,
            parts: [text("fine by me")],
            metadata: undefined,
            extensions: [],
            referenceTaskIds: [],
          }),
        );
        return bus.finished();
      }
      const task: Task = {
        id: ctx.taskId,
        contextId: ctx.contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
        artifacts: [],
        history: [message],
        metadata: undefined,
      };
      bus.publish(AgentEvent.task(task));
      status(ctx, bus, TaskState.TASK_STATE_WORKING);
      if (behaviour === "data") complete(ctx, bus, [text("done"), data({ approved: true, by: "peer" })]);
      if (behaviour === "text") complete(ctx, bus, [text("approved by the peer")]);
      if (behaviour === "reject") status(ctx, bus, TaskState.TASK_STATE_REJECTED, [text("not today")]);
      if (behaviour === "fail") status(ctx, bus, TaskState.TASK_STATE_FAILED, [text("the disk is full")]);
      if (behaviour === "ask") {
        const question = {
          id: "peer-q",
          kind: "input",
          prompt: "Which region?",
          data: { schema: { type: "object" } },
        };
        status(ctx, bus, TaskState.TASK_STATE_INPUT_REQUIRED, [text("Which region?"), data(question)]);
      }
      if (behaviour === "auth") {
        status(ctx, bus, TaskState.TASK_STATE_AUTH_REQUIRED, [
          text("Sign in to the registry"),
          link("https://idp.test/authorize"),
        ]);
      }
      if (behaviour === "hold") {
        await new Promise<void>((resolve) => held.set(ctx.taskId, resolve));
        if (!held.has(`cancelled:${ctx.taskId}`)) complete(ctx, bus, [data({ released: true })]);
      }
      bus.finished();
    },
    async cancelTask(taskId, bus) {
      held.set(`cancelled:${taskId}`, () => {});
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId: contexts.get(taskId) ?? "",
          status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: undefined },
          metadata: undefined,
        }),
      );
      held.get(taskId)?.();
      bus.finished();
    },
  };

  const app = express();
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: "test peer",
    description: "Answers requests in tests",
    version: "1.0.0",
    supportedInterfaces: [
      { url: `${url}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
    ],
    provider: undefined,
    capabilities: { streaming: options.streaming, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain", "application/json"],
    skills: [],
    signatures: [],
  } as unknown as AgentCard;
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const peer: TestPeer = {
    url,
    cardUrl: `${url}/.well-known/agent-card.json`,
    started: 0,
    authorizations: [],
    received: [],
    release() {
      for (const [id, resolve] of held) if (!id.startsWith("cancelled:")) resolve();
    },
    close: () =>
      new Promise((resolve) => {
        peer.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  app.use("/a2a", (req, _res, next) => {
    peer.authorizations.push(req.headers.authorization);
    next();
  });
  app.use("/a2a", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return peer;
}
