import "server-only";
import { Task } from "@a2a-js/sdk";
import { type LivePushConfig, listLiveA2aPushConfigs, queueA2aPush } from "@/lib/db/a2a-push-configs";
import type { DbClient } from "@/lib/db/db-types";
import { getRunTaskRowsById } from "@/lib/db/run-tasks";
import { type PollingPass, pollPasses } from "@/lib/notify/polling-pass";
import { isFinalState, stateName, taskOf } from "./task-view";

// A2A push notifications (ADR 0095) are derived, not written on the run's hot path: a pass reads
// the tasks that have a live push config, and each task whose state differs from the one last
// queued for a config gets a message in the webhook outbox, sent by the webhook worker.
// Runs without a push config cost nothing; a task costs one read per pass while it has one.

export interface A2APushQueue extends PollingPass {
  /** One pass: queues the pushes due now; returns how many were queued. */
  pass(): Promise<number>;
}

/** At most this many live configs are read per pass; the next pass goes on after the last one. */
const CONFIGS_PER_PASS = 200;

export function createA2APushQueue({
  db,
  pollMs = 1_000,
  configsPerPass = CONFIGS_PER_PASS,
}: {
  db: DbClient;
  pollMs?: number;
  configsPerPass?: number;
}): A2APushQueue {
  // Where the next pass starts: after the last config this one read, from the first once all were read.
  let after: string | null = null;
  const pass = async (): Promise<number> => {
    const configs = await listLiveA2aPushConfigs({ db, after, limit: configsPerPass });
    after = configs.length === configsPerPass ? configs.at(-1)!.id : null;
    const byRun = new Map<string, LivePushConfig[]>();
    for (const config of configs) byRun.set(config.runId, [...(byRun.get(config.runId) ?? []), config]);
    let queued = 0;
    for (const [runId, wanting] of byRun) {
      const rows = await getRunTaskRowsById({ db, runId });
      if (!rows) continue;
      const task = taskOf(rows);
      const state = task.status!.state;
      // A parked run asking something new is a new state, though its name stays input-required.
      const key = `${stateName(state)}:${rows.openRequests.map((request) => request.id).join(",")}`;
      const body = JSON.stringify(Task.toJSON(task));
      for (const config of wanting) {
        if (config.pushedState === key) continue;
        const moved = await queueA2aPush({
          db,
          configRowId: config.id,
          from: config.pushedState,
          to: key,
          final: isFinalState(state),
          body,
          at: new Date(),
        });
        if (moved) queued += 1;
      }
    }
    return queued;
  };
  const polling = pollPasses({ pass, pollMs, failure: "A2A push pass failed" });
  return { pass, start: polling.start, stop: polling.stop };
}
