import { describe, expect, it } from "vitest";
import { linkAbort } from "./abort-link";

describe("linkAbort", () => {
  it("aborts with the outer signal's reason, and on its own", () => {
    const outer = new AbortController();
    const linked = linkAbort(outer.signal);
    expect(linked.controller.signal.aborted).toBe(false);
    outer.abort(new Error("stopped"));
    expect(linked.controller.signal.reason).toEqual(new Error("stopped"));

    const own = linkAbort(new AbortController().signal);
    own.controller.abort("mine");
    expect(own.controller.signal.reason).toBe("mine");
  });

  it("starts aborted when the outer signal already is, and works with none", () => {
    expect(linkAbort(AbortSignal.abort("early")).controller.signal.reason).toBe("early");
    expect(linkAbort(undefined).controller.signal.aborted).toBe(false);
  });

  it("stops following the outer signal once released", () => {
    const outer = new AbortController();
    const linked = linkAbort(outer.signal);
    linked.release();
    outer.abort();
    expect(linked.controller.signal.aborted).toBe(false);
  });
});
