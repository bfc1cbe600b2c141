import { describe, expect, it } from "vitest";
import { inboxHref, inboxSearch, parseInboxFilters, readSelectedId } from "./inbox-filters";

describe("parseInboxFilters", () => {
  it("defaults to open requests, newest first, page 1", () => {
    expect(parseInboxFilters({})).toEqual({
      kind: undefined,
      status: "open",
      sort: "newest",
      q: undefined,
      page: 1,
    });
  });

  it("reads every filter from the URL", () => {
    expect(
      parseInboxFilters({ kind: "approval", status: "answered", sort: "expiry", q: " deploy ", page: "3" }),
    ).toEqual({ kind: "approval", status: "answered", sort: "expiry", q: "deploy", page: 3 });
  });

  it("drops only the values that are invalid, keeping the rest", () => {
    expect(
      parseInboxFilters({ kind: "<script>", status: "open", sort: "random", q: "x".repeat(20), page: "-2" }),
    ).toEqual({ kind: undefined, status: "open", sort: "newest", q: "x".repeat(20), page: 1 });
  });

  it("takes the first of repeated parameters", () => {
    expect(parseInboxFilters({ status: ["expired", "open"] }).status).toBe("expired");
  });
});

describe("inboxSearch", () => {
  it("round-trips through the parser and omits defaults", () => {
    const filters = parseInboxFilters({ kind: "question", q: "flight & hotel", page: "2" });
    const search = inboxSearch(filters);
    expect(search).toBe("?kind=question&q=flight+%26+hotel&page=2");
    const back = Object.fromEntries(new URLSearchParams(search.slice(1)));
    expect(parseInboxFilters(back)).toEqual(filters);
  });

  it("applies a change on top of the current filters", () => {
    const filters = parseInboxFilters({ kind: "approval", page: "4" });
    expect(inboxSearch(filters, { page: 1 })).toBe("?kind=approval");
    expect(inboxSearch(parseInboxFilters({}))).toBe("");
  });
});

describe("a refused search", () => {
  it("refuses a search over 200 characters with a message, instead of dropping it", () => {
    const filters = parseInboxFilters({ q: "x".repeat(201), kind: "approval" });
    expect(filters.q).toBeUndefined();
    expect(filters.kind).toBe("approval");
    expect(filters.searchError).toEqual({
      text: "x".repeat(201),
      message: "Searches can be at most 200 characters long; this one has 201. Shorten it and search again.",
    });
    expect(parseInboxFilters({ q: "x".repeat(200) })).toMatchObject({ q: "x".repeat(200) });
    expect(parseInboxFilters({ q: "x".repeat(200) }).searchError).toBeUndefined();
  });

  it("refuses control characters such as a NUL byte", () => {
    const filters = parseInboxFilters({ q: "deploy\u0000x" });
    expect(filters.q).toBeUndefined();
    expect(filters.searchError?.message).toMatch(/control characters \(such as a NUL byte\)/);
    expect(filters.searchError?.text).toBe("deployx");
  });
});

describe("the selected request", () => {
  it("is read from ?selected= and ignored when it is no request id", () => {
    expect(readSelectedId({ selected: "cmabc123" })).toBe("cmabc123");
    expect(readSelectedId({ selected: "req_l27NBVQAswmtG4RC-Cee" })).toBe("req_l27NBVQAswmtG4RC-Cee");
    expect(readSelectedId({ selected: ["cm1", "cm2"] })).toBe("cm1");
    expect(readSelectedId({ selected: "../admin" })).toBeUndefined();
    expect(readSelectedId({})).toBeUndefined();
  });

  it("rides along the filters in the inbox URL", () => {
    const filters = parseInboxFilters({ kind: "approval" });
    expect(inboxHref(filters, "cm1")).toBe("/inbox?kind=approval&selected=cm1");
    expect(inboxHref(parseInboxFilters({}), "cm1")).toBe("/inbox?selected=cm1");
    expect(inboxHref(filters)).toBe("/inbox?kind=approval");
  });
});
