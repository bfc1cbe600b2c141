import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

export interface Ticket {
  id: number;
  title: string;
  priority: "low" | "normal" | "high";
  status: "open" | "closed";
  description?: string;
  resolution?: string;
}

export interface TrackerState {
  tickets: Ticket[];
  nextId: number;
  /** Whether the user linked their tracker account (the URL elicitation's request path). */
  linked: boolean;
  /** Exports whose browser authorization was asked for (the URL error path's one-shot marks). */
  exportsAsked: string[];
}

function seed(): TrackerState {
  const titles = [
    "Login page times out on slow networks",
    "Invoice PDF shows the wrong currency",
    "Search ignores accents",
    "Dark mode contrast on the inbox",
    "Webhook retries flood the queue",
    "Password reset mail lands in spam",
    "Old export job still running",
  ];
  return {
    tickets: titles.map((title, i) => ({
      id: i + 1,
      title,
      priority: i % 3 === 0 ? "high" : "normal",
      status: "open",
    })),
    nextId: titles.length + 1,
    linked: false,
    exportsAsked: [],
  };
}

/**
 * The tracker's state, in a JSON file when one is given (so every process of the app and every
 * restart sees the same tickets) or in memory otherwise.
 */
export function createTicketStore(file: string | undefined) {
  let memory = seed();
  const read = (): TrackerState => {
    if (!file) return memory;
    if (!existsSync(file)) return seed();
    return JSON.parse(readFileSync(file, "utf8")) as TrackerState;
  };
  const write = (state: TrackerState): void => {
    if (!file) {
      memory = state;
      return;
    }
    // Write then rename, so a reader never sees half a file.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(state, null, 2));
    renameSync(temporary, file);
  };
  return {
    read,
    update<T>(change: (state: TrackerState) => T): T {
      const state = read();
      const result = change(state);
      write(state);
      return result;
    },
  };
}

export type TicketStore = ReturnType<typeof createTicketStore>;
