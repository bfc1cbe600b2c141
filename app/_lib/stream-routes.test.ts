import { describe, expect, it } from "vitest";
import { matchStreamRoute, STREAM_ROUTES } from "./stream-routes";

describe("matchStreamRoute", () => {
  it("names each stream by its exact path, with the thread id decoded", () => {
    expect(matchStreamRoute("/api/inbox/stream")?.route).toBe(STREAM_ROUTES.inbox);
    expect(matchStreamRoute("/api/inbox/count/stream")?.route).toBe(STREAM_ROUTES.waitingCount);
    expect(matchStreamRoute("/api/threads/stream")?.route).toBe(STREAM_ROUTES.threads);
    expect(matchStreamRoute("/api/threads/t%201/stream")).toEqual({
      route: STREAM_ROUTES.threadRun,
      params: { id: "t 1" },
    });
  });

  it("is no stream for a near miss: another depth, a trailing slash, an empty or undecodable id", () => {
    for (const path of [
      "/api/inbox",
      "/api/inbox/stream/",
      "/api/inbox//stream",
      "/api/threads//stream",
      "/api/threads/%E0%A4%A/stream",
      "/api/threads/a/b/stream",
      "/API/inbox/stream",
    ])
      expect(matchStreamRoute(path), path).toBeNull();
  });
});
