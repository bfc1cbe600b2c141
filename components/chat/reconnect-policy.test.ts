import { describe, expect, it } from "vitest";
import {
  ALERT_AFTER_FAILURES,
  connectionNotice,
  GIVE_UP_AFTER_FAILURES,
  isConnectionLoss,
  shouldKeepTrying,
  shouldReattach,
} from "./reconnect-policy";
import { StreamResponseError } from "./stream-response-error";

describe("isConnectionLoss", () => {
  it.each([
    ["Chromium, refused", new TypeError("Failed to fetch")],
    ["Chromium, cut mid-stream", new TypeError("network error")],
    ["Firefox, refused", new TypeError("NetworkError when attempting to fetch resource.")],
    ["Firefox, cut mid-stream", new TypeError("Error in body stream")],
    ["Safari", new TypeError("Load failed")],
    ["a server restarting", new StreamResponseError(503, "")],
    ["a proxy without its upstream", new StreamResponseError(502, "<html>Bad Gateway</html>")],
    ["a proxy timing out", new StreamResponseError(504, "")],
    ["a request timeout", new StreamResponseError(408, "")],
    ["too many requests", new StreamResponseError(429, "")],
  ])("counts %s", (_label, error) => {
    expect(isConnectionLoss(error)).toBe(true);
  });

  it.each([
    ["an expired session", new StreamResponseError(401, '{"message":"Please sign in to continue."}')],
    ["a chat of someone else", new StreamResponseError(403, "")],
    ["a run that does not exist", new StreamResponseError(404, "")],
    ["an error the server sent in the stream", new Error("Something went wrong on our side.")],
    ["a refused start", new Error("This chat is still working on a previous message.")],
    ["a bug in the page", new TypeError("Cannot read properties of undefined (reading 'parts')")],
    ["a thrown string", "network error"],
  ])("does not count %s", (_label, error) => {
    expect(isConnectionLoss(error)).toBe(false);
  });
});

describe("shouldReattach", () => {
  const dropped = { kind: "failed", error: new TypeError("network error") } as const;

  it("reattaches to a live run after a lost connection", () => {
    expect(shouldReattach(dropped, true)).toBe(true);
  });

  it("reattaches when the stream closed cleanly while its run was still live", () => {
    expect(shouldReattach({ kind: "finished" }, true)).toBe(true);
  });

  it("leaves a run that has ended, however its stream ended", () => {
    expect(shouldReattach(dropped, false)).toBe(false);
    expect(shouldReattach({ kind: "finished" }, false)).toBe(false);
  });

  it("does not reattach after an abort", () => {
    expect(shouldReattach({ kind: "aborted" }, true)).toBe(false);
  });

  it("does not reattach after an answer that asking again cannot change", () => {
    expect(shouldReattach({ kind: "failed", error: new StreamResponseError(401, "") }, true)).toBe(false);
    expect(shouldReattach({ kind: "failed", error: new Error("The run failed.") }, true)).toBe(false);
  });
});

describe("giving up", () => {
  it("keeps trying on a timer until the give-up point", () => {
    expect(shouldKeepTrying(0)).toBe(true);
    expect(shouldKeepTrying(GIVE_UP_AFTER_FAILURES - 1)).toBe(true);
    expect(shouldKeepTrying(GIVE_UP_AFTER_FAILURES)).toBe(false);
  });

  it("alerts before it gives up", () => {
    expect(ALERT_AFTER_FAILURES).toBeLessThan(GIVE_UP_AFTER_FAILURES);
  });

  it("says quietly that it is reconnecting, then alerts", () => {
    expect(connectionNotice({ failures: 0, online: true })).toBe("reconnecting");
    expect(connectionNotice({ failures: ALERT_AFTER_FAILURES - 1, online: true })).toBe("reconnecting");
    expect(connectionNotice({ failures: ALERT_AFTER_FAILURES, online: true })).toBe("lost");
  });

  it("alerts at once when the browser is offline", () => {
    expect(connectionNotice({ failures: 0, online: false })).toBe("offline");
  });
});
