import { describe, expect, it } from "vitest";
import {
  auditDateShortcuts,
  auditQueryFor,
  auditSearch,
  parseAuditFilters,
  settingChangeQueryFor,
} from "./audit-filters";

const admin = { id: "u-admin", role: "admin" as const };
const reviewer = { id: "u-rita", role: "reviewer" as const };

describe("audit filters", () => {
  it("reads each filter from the URL, dropping only the bad ones", () => {
    const filters = parseAuditFilters({
      person: "u-sam",
      tool: "deploy",
      outcome: "declined",
      from: "2030-01-01",
      to: "2030-13-45",
      page: "2",
    });
    expect(filters).toEqual({
      view: "answers",
      change: undefined,
      person: "u-sam",
      tool: "deploy",
      outcome: "declined",
      from: "2030-01-01",
      to: undefined,
      page: 2,
    });
    expect(auditSearch(filters)).toBe("?person=u-sam&tool=deploy&outcome=declined&from=2030-01-01&page=2");
    // The audit's words are the app's: an approval is "approved", other kinds are "answered".
    expect(parseAuditFilters({ outcome: "approved" }).outcome).toBe("approved");
    expect(parseAuditFilters({ outcome: "answered" }).outcome).toBe("answered");
    expect(parseAuditFilters({ outcome: "done", person: "'; drop" })).toMatchObject({
      outcome: undefined,
      person: undefined,
    });
  });

  it("gives admins everyone's answers and anyone else only their own", () => {
    const filters = parseAuditFilters({ person: "u-sam", to: "2030-01-31" });
    expect(auditQueryFor(admin, filters)).toMatchObject({
      actorId: "u-sam",
      before: new Date("2030-02-01T00:00:00Z"),
    });
    expect(auditQueryFor(reviewer, filters).actorId).toBe("u-rita");
    expect(auditQueryFor(reviewer, parseAuditFilters({})).actorId).toBe("u-rita");
    expect(auditQueryFor(admin, parseAuditFilters({}))).not.toHaveProperty("actorId");
  });

  it("lists setting changes of one kind in their own view, keeping only that view's filters", () => {
    const filters = parseAuditFilters({
      view: "changes",
      change: "group",
      tool: "deploy",
      from: "2030-01-01",
    });
    expect(filters).toMatchObject({ view: "changes", change: "group", tool: "deploy" });
    expect(auditSearch(filters)).toBe("?view=changes&change=group&from=2030-01-01");
    expect(settingChangeQueryFor(filters)).toEqual({
      kind: "group",
      from: new Date("2030-01-01T00:00:00Z"),
      page: 1,
      pageSize: 25,
    });
    expect(parseAuditFilters({ view: "everything", change: "passwords" })).toMatchObject({
      view: "answers",
      change: undefined,
    });
  });

  it("offers today, yesterday and the last 7 days as whole days", () => {
    expect(auditDateShortcuts(new Date("2030-03-01T08:00:00Z"))).toEqual([
      { label: "Today", from: "2030-03-01", to: "2030-03-01" },
      { label: "Yesterday", from: "2030-02-28", to: "2030-02-28" },
      { label: "Last 7 days", from: "2030-02-23", to: "2030-03-01" },
    ]);
  });
});
