import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { type ConversationStore, InMemoryConversationStore } from "./conversations";
import { createScriptedDriver } from "./testing/scripted-driver";
import type { Message } from "./types";

// A model whose answer is how many messages it was sent: the history it saw, counted.
const counting = () => createScriptedDriver((input) => ({ text: `${input.messages.length} messages` }));

describe("conversations", () => {
  it("ask with an id remembers the transcript; without one, or with another id, it starts afresh", async () => {
    const client = createClientFromDriver(counting());
    expect((await client.ask("hi")).text).toBe("1 messages");
    expect((await client.ask("first", { id: "a" })).text).toBe("1 messages");
    expect((await client.ask("second", { id: "a" })).text).toBe("3 messages");
    expect((await client.ask("other", { id: "b" })).text).toBe("1 messages");
    const kept = await client.conversationStore().get("a");
    expect(kept?.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(await client.conversationStore().get("never")).toBeUndefined();
  });

  it("uses the store it is given, reading before and saving after each run", async () => {
    const calls: string[] = [];
    const backing = new Map<string, Message[]>();
    const store: ConversationStore = {
      async get(id) {
        calls.push(`get:${id}`);
        return backing.get(id);
      },
      async save(id, messages) {
        calls.push(`save:${id}`);
        backing.set(id, messages);
      },
    };
    const client = createClientFromDriver(counting(), { store });
    expect(client.conversationStore()).toBe(store);
    await client.ask("hi", { id: "u" });
    expect(calls).toEqual(["get:u", "save:u"]);
    expect(backing.get("u")).toHaveLength(2);
  });

  it("stream with an id continues the conversation and keeps it before done is seen", async () => {
    const client = createClientFromDriver(counting(), { store: new InMemoryConversationStore() });
    const textOf = async (prompt: string, id?: string) => {
      let text = "";
      for await (const event of client.stream(prompt, id === undefined ? {} : { id })) {
        if (event.type === "text") text += event.delta;
        if (event.type === "done")
          expect(id === undefined || (await client.conversationStore().get(id))).toBeTruthy();
      }
      return text;
    };
    expect(await textOf("x")).toBe("1 messages");
    expect(await textOf("first", "s")).toBe("1 messages");
    expect(await textOf("second", "s")).toBe("3 messages");
    expect(await client.conversationStore().get("s")).toHaveLength(4);
  });

  it("ask with on_text streams the deltas and returns the whole result", async () => {
    const client = createClientFromDriver(createScriptedDriver([{ text: "Hello there" }]));
    const deltas: string[] = [];
    const result = await client.ask("hi", { on_text: (delta) => deltas.push(delta) });
    expect(deltas.join("")).toBe("Hello there");
    expect(deltas.length).toBeGreaterThan(1);
    expect(result).toMatchObject({ status: "done", text: "Hello there", usage: { totalTokens: 2 } });
  });

  it("the in-memory store hands out copies, so a caller's change does not reach it", async () => {
    const store = new InMemoryConversationStore();
    const messages: Message[] = [{ role: "user", content: "a" }];
    await store.save("c", messages);
    messages.push({ role: "user", content: "b" });
    (await store.get("c"))!.push({ role: "user", content: "c" });
    expect(await store.get("c")).toEqual([{ role: "user", content: "a" }]);
  });
});
