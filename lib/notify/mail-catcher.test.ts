import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MailCatcher, startMailCatcher } from "./mail-catcher";

describe("the mail catcher", () => {
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher();
  });
  afterAll(async () => {
    await catcher?.close();
  });

  it("catches what nodemailer sends, long lines and non-ASCII subjects included", async () => {
    const transport = nodemailer.createTransport(`smtp://127.0.0.1:${catcher.port}`);
    const text = `Approve “deploy” ${"x".repeat(200)}\nhttps://app.example.test/requests/abc_123=`;
    await transport.sendMail({
      from: "app@example.test",
      to: "rita@example.test",
      subject: "Approval — needed ✓",
      text,
    });
    const [mail] = catcher.mails();
    expect(mail).toMatchObject({
      from: "app@example.test",
      to: ["rita@example.test"],
      subject: "Approval — needed ✓",
    });
    expect(mail!.text).toBe(text);
    expect(mail!.html).toBeNull();
  });

  it("keeps both parts of a mail with text and HTML", async () => {
    const transport = nodemailer.createTransport(`smtp://127.0.0.1:${catcher.port}`);
    const html = "<p>Approve <b>deploy</b>?</p><blockquote>“quoted” ✓</blockquote>";
    await transport.sendMail({
      from: "app@example.test",
      to: "ops@example.test",
      subject: "Both",
      text: "Approve deploy?\n> “quoted” ✓",
      html,
    });
    const mail = catcher.mails().find((one) => one.to.includes("ops@example.test"));
    expect(mail).toMatchObject({ subject: "Both", text: "Approve deploy?\n> “quoted” ✓", html });
  });
});
