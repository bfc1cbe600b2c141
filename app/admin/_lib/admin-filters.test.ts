import { describe, expect, it } from "vitest";
import { pageSearch, parsePage, parseUserFilters, userSearch } from "./admin-filters";

describe("admin filters", () => {
  it("reads search and page from the URL and writes them back without defaults", () => {
    const filters = parseUserFilters({ q: "  ada ", page: "3" });
    expect(filters).toEqual({ q: "ada", page: 3 });
    expect(userSearch(filters)).toBe("?q=ada&page=3");
    expect(userSearch(filters, { page: 1 })).toBe("?q=ada");
    expect(userSearch({ q: undefined, page: 1 })).toBe("");
    expect(userSearch({ q: "a&b c", page: 2 })).toBe("?q=a%26b+c&page=2");
  });

  it.each([
    ["no parameters", {}],
    ["a blank search and page zero", { q: "   ", page: "0" }],
    ["a page that is not a number", { page: "two" }],
    ["a fractional page", { page: "1.5" }],
  ])("falls back to the defaults for %s", (_label, params) => {
    expect(parseUserFilters(params)).toEqual({ q: undefined, page: 1 });
  });

  it("refuses a search that is too long, saying so, rather than listing everyone", () => {
    expect(parseUserFilters({ q: "x".repeat(201) })).toEqual({
      q: undefined,
      page: 1,
      searchError: {
        text: "x".repeat(201),
        message:
          "Searches can be at most 200 characters long; this one has 201. Shorten it and search again.",
      },
    });
  });

  it("keeps one good value when the other is bad, and takes the first of repeated ones", () => {
    expect(parseUserFilters({ q: "bo", page: "-1" })).toEqual({ q: "bo", page: 1 });
    expect(parseUserFilters({ q: ["cy", "di"], page: ["2", "5"] })).toEqual({ q: "cy", page: 2 });
    expect(parsePage({ page: "4" })).toBe(4);
    expect(pageSearch(1)).toBe("");
    expect(pageSearch(4)).toBe("?page=4");
  });
});
