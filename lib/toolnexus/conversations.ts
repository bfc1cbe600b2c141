import type { Client, Message, RunOptions, RunResult, StreamEvent } from "./types";

/** Where `ask` and `stream` with an `id` keep each conversation's transcript between calls. */
export interface ConversationStore {
  /** The transcript kept for `id`, or undefined for a conversation not seen yet. */
  get(id: string): Promise<Message[] | undefined>;
  save(id: string, messages: Message[]): Promise<void>;
}

/** The default store: transcripts in memory, for as long as the client lives. */
export class InMemoryConversationStore implements ConversationStore {
  private readonly conversations = new Map<string, Message[]>();

  async get(id: string): Promise<Message[] | undefined> {
    const messages = this.conversations.get(id);
    return messages ? [...messages] : undefined;
  }

  async save(id: string, messages: Message[]): Promise<void> {
    this.conversations.set(id, [...messages]);
  }
}

export interface ConversationOptions extends RunOptions {
  /** Names the conversation: its transcript is read before the run and kept after it. */
  id?: string;
}

export interface AskOptions extends ConversationOptions {
  /** Streams the model's text as it comes; the full result is still returned. */
  on_text?: (delta: string) => void;
}

type Core = Pick<Client, "run" | "stream">;

/** `ask`, and `stream` with an `id`: a run whose history comes from the store and goes back to it. */
export function withConversations(core: Core, store: ConversationStore) {
  const historyOf = async (options: ConversationOptions): Promise<RunOptions> => {
    const { id, ...rest } = options;
    if (id === undefined) return rest;
    const history = (await store.get(id)) ?? rest.history;
    return history ? { ...rest, history } : rest;
  };

  async function* remembered(prompt: string, options: ConversationOptions): AsyncGenerator<StreamEvent> {
    for await (const event of core.stream(prompt, await historyOf(options))) {
      // Kept before `done` goes out, so a caller that stops at `done` finds it saved.
      if (event.type === "done" && options.id !== undefined)
        await store.save(options.id, event.result.transcript);
      yield event;
    }
  }

  // Without an id there is nothing to remember: the run's own stream, with no layer around it.
  const stream = (prompt: string, options: ConversationOptions = {}): AsyncIterable<StreamEvent> =>
    options.id === undefined ? core.stream(prompt, options) : remembered(prompt, options);

  async function ask(prompt: string, options: AskOptions = {}): Promise<RunResult> {
    const { on_text, ...rest } = options;
    if (!on_text) {
      const result = await core.run(prompt, await historyOf(rest));
      if (rest.id !== undefined) await store.save(rest.id, result.transcript);
      return result;
    }
    let result: RunResult | undefined;
    for await (const event of stream(prompt, rest)) {
      if (event.type === "text") on_text(event.delta);
      else if (event.type === "done") result = event.result;
    }
    return result!;
  }

  return { stream, ask, conversationStore: () => store };
}
