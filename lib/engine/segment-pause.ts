import { isDatabaseUnavailable } from "@/lib/db/sql/database-unavailable";
import type { ResumableCheckpoint } from "@/lib/toolnexus/types";

/**
 * Whether a segment of a run met the database away (ADR 0060): then it stops (`stop` aborts the
 * model and tools) and the run pauses, staying as last stored for recovery, instead of failing.
 * Only storage's own calls can pause it — the event writer's writes, and whatever `stored` wraps —
 * so a model host's refused connection is still the run's own failure.
 */
export function createSegmentPause(stop: AbortController) {
  let cause: { error: unknown } | undefined;
  const pause = (error: unknown) => {
    cause ??= { error };
    stop.abort();
  };
  const stored = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (isDatabaseUnavailable(error)) pause(error);
      throw error;
    }
  };
  return {
    /** Pauses on a storage failure that says the database is away; ignores any other. */
    onStorageFailure(error: unknown) {
      if (isDatabaseUnavailable(error)) pause(error);
    },
    stored,
    /** A deferred transcript (ADR 0054) is read from storage too, so its read may pause the run. */
    readingStored(checkpoint: ResumableCheckpoint): ResumableCheckpoint {
      if (!("loadTranscript" in checkpoint)) return checkpoint;
      const { loadTranscript } = checkpoint;
      return { ...checkpoint, loadTranscript: () => stored(loadTranscript) };
    },
    /** What paused the segment, if anything did. */
    get cause(): { error: unknown } | undefined {
      return cause;
    },
  };
}
