import type { RunCardData } from "@/lib/domain/chat-message";

/** One line under an assistant message saying where its run stands, when that is not obvious. */
export function RunStatusLine({ run }: { run: RunCardData }) {
  switch (run.status) {
    case "running":
      return (
        <p className="run-status muted" role="status">
          Working…
        </p>
      );
    case "pending":
      return (
        <p className="run-status muted" role="status">
          Paused until the request above is answered.
        </p>
      );
    case "failed":
      return (
        <p className="run-status alert alert-error" role="alert">
          The run failed{run.error ? `: ${run.error}` : "."}
        </p>
      );
    case "cancelled":
      return <p className="run-status muted">The run was cancelled.</p>;
    case "incomplete":
      return <p className="run-status muted">The run stopped at its turn limit before finishing.</p>;
    case "done":
      return null;
  }
}
