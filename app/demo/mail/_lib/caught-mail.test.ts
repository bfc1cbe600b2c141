import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MailCatcher, startMailCatcher } from "@/lib/notify/mail-catcher";
import { loadCaughtMail, splitAppLinks } from "./caught-mail";

// /demo/mail over what a real catcher caught: each person sees the mail addressed to them,
// admins everyone's, and nobody but an admin sees it outside demo mode.

describe("the caught mail page", () => {
  let dir: string;
  let file: string;
  let catcher: MailCatcher;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "caught-mail-"));
    file = path.join(dir, "mail.jsonl");
    catcher = await startMailCatcher({ file });
    const transport = nodemailer.createTransport(`smtp://127.0.0.1:${catcher.port}`);
    const send = (to: string | string[], subject: string) =>
      transport.sendMail({ from: "app@example.test", to, subject, text: subject });
    await send("alice@example.test", "For Alice");
    await send("rita@example.test", "For Rita");
    await send(["rita@example.test", "Alice@Example.test"], "For both");
  });
  afterAll(async () => {
    await catcher?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const subjects = (viewer: { email: string | null; role: "user" | "reviewer" | "admin" }, demoMode = true) =>
    loadCaughtMail({ viewer, file, demoMode })?.map((mail) => mail.subject) ?? null;

  it("shows each person only the mail addressed to them, and admins all of it", () => {
    expect(subjects({ email: "alice@example.test", role: "user" })).toEqual(["For both", "For Alice"]);
    expect(subjects({ email: "rita@example.test", role: "reviewer" })).toEqual(["For both", "For Rita"]);
    expect(subjects({ email: "mallory@example.test", role: "reviewer" })).toEqual([]);
    expect(subjects({ email: null, role: "user" })).toEqual([]);
    expect(subjects({ email: "root@example.test", role: "admin" })).toEqual([
      "For both",
      "For Rita",
      "For Alice",
    ]);
  });

  it("is there only with a catcher, and outside demo mode only for admins", () => {
    expect(subjects({ email: "alice@example.test", role: "user" }, false)).toBeNull();
    expect(subjects({ email: "root@example.test", role: "admin" }, false)).toHaveLength(3);
    expect(
      loadCaughtMail({
        viewer: { email: "root@example.test", role: "admin" },
        file: undefined,
        demoMode: true,
      }),
    ).toBeNull();
  });

  it("links only the app's own pages in a mail's text", () => {
    const text =
      "> sign in at https://evil.example/login\nOpen the request: https://app.example.test/requests/r1";
    expect(splitAppLinks(text, "https://app.example.test")).toEqual([
      { text: "> sign in at " },
      { text: "https://evil.example/login" },
      { text: "\nOpen the request: " },
      { link: "https://app.example.test/requests/r1" },
    ]);
    // A look-alike host is no page of the app.
    expect(splitAppLinks("https://app.example.test.evil.example/x", "https://app.example.test")).toEqual([
      { text: "https://app.example.test.evil.example/x" },
    ]);
  });
});
