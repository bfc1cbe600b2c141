import pg from "pg";
import { createMemoryEventBus, type EngineSignal, type EventBus } from "./event-bus";
import { createNotifyQueue, type QueuedNotice } from "./notify-queue";

// Several app processes sharing one PostgreSQL learn about each other's events through
// LISTEN/NOTIFY. A notification carries only the thread id and seq (NOTIFY payloads are
// capped at 8000 bytes, and the rows are the truth); subscribers read the rows themselves.

const channelPattern = /^[a-z_][a-z0-9_]{0,62}$/;

function isEngineSignal(value: EngineSignal): boolean {
  if (value.type === "runs_released") return true;
  if (value.type === "mcp_call_cancelled") {
    const id = value.callId;
    return (
      typeof value.tokenId === "string" &&
      (typeof id === "number" || (typeof id === "string" && id.length <= 200))
    );
  }
  return value.type === "run_cancelled" && typeof value.runId === "string" && value.runId.length <= 200;
}

export interface PostgresEventBusOptions {
  connectionString: string;
  /** Tags this process's notifications so it does not react to its own echo. */
  instanceId: string;
  channel?: string;
  /** Delay before reconnecting a dropped LISTEN connection. */
  reconnectMs?: number;
}

export async function createPostgresEventBus({
  connectionString,
  instanceId,
  channel = "toolnexus_events",
  reconnectMs = 500,
}: PostgresEventBusOptions): Promise<EventBus> {
  if (!channelPattern.test(channel)) throw new Error(`invalid NOTIFY channel name: ${channel}`);
  const local = createMemoryEventBus();
  let client: pg.Client | undefined;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== channel || !message.payload) return;
    try {
      const { i, t, s, g } = JSON.parse(message.payload) as {
        i: string;
        t: string;
        s: number;
        g?: EngineSignal;
      };
      if (i === instanceId) return;
      if (g) {
        if (isEngineSignal(g)) local.deliverSignal(g);
      } else if (typeof t === "string" && Number.isInteger(s)) local.deliver({ threadId: t, seq: s });
    } catch {
      // Not ours; ignore.
    }
  };

  const connect = async () => {
    // Named so operators (and tests) can tell these long-lived connections apart.
    const next = new pg.Client({ connectionString, application_name: "toolnexus-events" });
    next.on("notification", onNotification);
    next.on("error", () => drop(next));
    next.on("end", () => drop(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    // Whatever was notified while we were not listening is in the rows: have every live
    // subscriber re-read.
    local.resync();
  };

  const scheduleReconnect = () => {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect().catch(scheduleReconnect);
    }, reconnectMs);
  };

  const drop = (dead: pg.Client) => {
    if (client !== dead) return;
    client = undefined;
    dead.end().catch(() => {});
    scheduleReconnect();
  };

  await connect();
  // One statement for a whole batch: pg_notify once per payload, in the batch's order.
  const notices = createNotifyQueue(async (payloads) => {
    await client?.query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", [channel, payloads]);
  });

  return {
    async publish(...published) {
      const queued: QueuedNotice[] = [];
      for (const notice of published) {
        local.deliver(notice);
        const { threadId, seq } = notice;
        queued.push({
          key: threadId,
          seq,
          payload: () => JSON.stringify({ i: instanceId, t: threadId, s: seq }),
        });
      }
      // A remote subscriber reads every row up to the seq it is told, so one NOTIFY per thread
      // covers a whole commit. A lost one only delays it until the next; the rows are committed.
      await notices.notify(queued);
    },
    listen: local.listen,
    listenAll: local.listenAll,
    async signal(message) {
      // Heard here at once; the others hear it through the same channel as thread notices.
      local.deliverSignal(message);
      await notices.notify([{ seq: 0, payload: () => JSON.stringify({ i: instanceId, g: message }) }]);
    },
    listenSignals: local.listenSignals,
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const current = client;
      client = undefined;
      await local.close();
      await current?.end().catch(() => {});
    },
  };
}
