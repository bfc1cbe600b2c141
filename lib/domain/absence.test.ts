import { describe, expect, it } from "vitest";
import { type AbsencePeriod, absenceIssues, coversRequest, isRunning, mayCover } from "./absence";
import type { Role } from "./roles";

const at = (hours: number) => new Date(Date.UTC(2026, 11, 7, hours));
const now = at(8);
const sam: { email: string; role: Role } = { email: "sam@example.com", role: "reviewer" };

function issuesOf(next: Partial<AbsencePeriod>, existing: AbsencePeriod[] = [], delegate = sam) {
  return absenceIssues({
    next: { userId: "rita", delegateId: "sam", startsAt: at(9), endsAt: at(17), ...next },
    now,
    existing,
    personRole: "reviewer",
    delegate,
  });
}

describe("setting an absence", () => {
  it("accepts a future period covered by someone else", () => {
    expect(issuesOf({})).toEqual([]);
  });

  it("refuses a backwards or empty period, and one already over, on /until", () => {
    expect(issuesOf({ endsAt: at(9) })).toEqual([{ path: "/until", message: "must be after the start" }]);
    expect(issuesOf({ startsAt: at(12), endsAt: at(10) })[0]?.path).toBe("/until");
    expect(issuesOf({ startsAt: at(1), endsAt: at(7) })).toEqual([
      { path: "/until", message: "must be in the future" },
    ]);
    expect(issuesOf({ startsAt: new Date(Number.NaN) })).toEqual([
      { path: "/from", message: "must be a date and time" },
    ]);
  });

  it("refuses covering for oneself, nobody, and a delegate who could not see approvals", () => {
    expect(issuesOf({ delegateId: "rita" })).toEqual([
      { path: "/delegate", message: "cannot be the person who is away" },
    ]);
    expect(
      absenceIssues({
        next: { userId: "rita", delegateId: "", startsAt: at(9), endsAt: at(10) },
        now,
        existing: [],
        personRole: "user",
        delegate: null,
      })[0]?.path,
    ).toBe("/delegate");
    const user = { email: "una@example.com", role: "user" as const };
    expect(issuesOf({ delegateId: "una" }, [], user)[0]?.message).toMatch(
      /una@example.com is not a reviewer/,
    );
    expect(mayCover("user", "user")).toBe(true);
    expect(mayCover("admin", "reviewer")).toBe(true);
  });

  it("refuses overlapping absences of the same person on /from, not touching ones", () => {
    const mine = { id: "a1", userId: "rita", delegateId: "tom", startsAt: at(16), endsAt: at(20) };
    expect(issuesOf({}, [mine])[0]?.path).toBe("/from");
    expect(issuesOf({}, [{ ...mine, startsAt: at(17) }])).toEqual([]);
    // Editing an absence does not collide with itself.
    expect(issuesOf({ id: "a1" }, [mine])).toEqual([]);
  });

  it("refuses a loop A→B→A and A→B→C→A only where the times overlap", () => {
    const back = { id: "b", userId: "sam", delegateId: "rita", startsAt: at(12), endsAt: at(20) };
    expect(issuesOf({}, [back])).toEqual([
      {
        path: "/delegate",
        message: "sam@example.com sends what is addressed to them back to this person at that time (a loop)",
      },
    ]);
    expect(issuesOf({}, [{ ...back, startsAt: at(17) }])).toEqual([]);
    const viaTom = [
      { id: "c", userId: "sam", delegateId: "tom", startsAt: at(10), endsAt: at(12) },
      { id: "d", userId: "tom", delegateId: "rita", startsAt: at(11), endsAt: at(13) },
    ];
    expect(issuesOf({}, viaTom)[0]?.path).toBe("/delegate");
    // The chain's windows never meet: Sam → Tom ends before Tom → Rita starts.
    expect(issuesOf({}, [viaTom[0]!, { ...viaTom[1]!, startsAt: at(12) }])).toEqual([]);
  });
});

describe("what a delegate covers", () => {
  it("covers the person's own questions, never their sign-ins", () => {
    expect(coversRequest({ audience: "owner", kind: "input", ownerId: "rita" }, "rita")).toBe(true);
    expect(coversRequest({ audience: "owner", kind: "input", ownerId: "bob" }, "rita")).toBe(false);
    expect(coversRequest({ audience: "owner", kind: "authorization", ownerId: "rita" }, "rita")).toBe(false);
  });

  it("covers votes on others' requests only", () => {
    expect(coversRequest({ audience: "group", kind: "approval", ownerId: "bob" }, "rita")).toBe(true);
    expect(coversRequest({ audience: "group", kind: "approval", ownerId: "rita" }, "rita")).toBe(false);
  });

  it("runs from its start until just before its end", () => {
    const period = { startsAt: at(9), endsAt: at(17) };
    expect([at(8), at(9), at(16), at(17)].map((t) => isRunning(period, t))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});
