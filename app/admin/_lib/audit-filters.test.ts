import { describe, expect, it } from "vitest";
import { auditQueryFor, auditSearch, parseAuditFilters } from "./audit-filters";

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
});
