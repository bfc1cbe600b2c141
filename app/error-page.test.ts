import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import ErrorPage from "./error";

// What a page rendered while the database is away shows: Next gives the error boundary only the
// error's digest, which an `unavailable:database` AppError sets itself.

const render = (error: Error & { digest?: string }) =>
  renderToStaticMarkup(createElement(ErrorPage, { error, reset: () => {} }));

describe("the app's error page", () => {
  it("says the service is briefly unavailable for a database that is away, not that something broke", () => {
    const { digest } = new AppError("unavailable:database");
    const html = render(Object.assign(new Error("hidden in production"), { digest }));
    expect(html).toContain("briefly unavailable");
    expect(html).toContain("still signed in");
    expect(html).not.toContain("Something went wrong");
  });

  it("stays generic for any other error", () => {
    const html = render(Object.assign(new Error("hidden in production"), { digest: "12345" }));
    expect(html).toContain("Something went wrong");
    expect(html).toContain("12345");
  });
});
