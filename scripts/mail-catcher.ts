// Runs the local mail catcher next to the app, so email works offline:
//   npx tsx scripts/mail-catcher.ts
// It accepts every mail on MAIL_CATCHER_PORT (2525) of 127.0.0.1, relays none, and appends each to
// TOOLNEXUS_MAIL_CATCHER_FILE (data/mail-catcher.jsonl), which the demo page /demo/mail lists.
// The quick start and the end-to-end harness start it and point TOOLNEXUS_SMTP_URL at it.
import { startMailCatcher } from "../lib/notify/mail-catcher";

const port = Number(process.env.MAIL_CATCHER_PORT || 2525);
const file = process.env.TOOLNEXUS_MAIL_CATCHER_FILE || "data/mail-catcher.jsonl";
const catcher = await startMailCatcher({ port, host: "127.0.0.1", file });
console.log(`mail catcher listening on smtp://127.0.0.1:${catcher.port}, keeping mail in ${file}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void catcher.close().then(() => process.exit(0));
  });
}
