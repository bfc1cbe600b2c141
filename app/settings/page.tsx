import type { Metadata } from "next";
import Link from "next/link";
import { RoleBadge } from "@/components/role-badge";
import { describeModel, readModelConfig } from "@/lib/agent/model-config";
import { requirePageUser } from "@/lib/auth/guards";
import { getEmailWhenDecidedByUser } from "@/lib/db/decided-mail";
import { getEmailModeByUser } from "@/lib/db/notification-settings";
import { getDb } from "@/lib/db/sql/client";
import { readMailSettings } from "@/lib/notify/mail-config";
import { AwaySection } from "./away-section";
import { EmailModeForm } from "./email-mode-form";

export const metadata: Metadata = { title: "Settings · toolnexus" };

export default async function SettingsPage() {
  const user = await requirePageUser("/settings");
  const model = describeModel(readModelConfig());
  const [emailMode, whenDecided] = await Promise.all([
    getEmailModeByUser({ db: getDb(), userId: user.id }),
    getEmailWhenDecidedByUser({ db: getDb(), userId: user.id }),
  ]);
  const mail = readMailSettings();

  return (
    <div className="stack">
      <h1 className="page-title">Settings</h1>
      <section className="card stack" aria-labelledby="account-title">
        <h2 id="account-title">Your account</h2>
        <dl className="details">
          <dt>Name</dt>
          <dd>{user.name ?? "—"}</dd>
          <dt>Email</dt>
          <dd>{user.email ?? "—"}</dd>
          <dt>Role</dt>
          <dd>
            <RoleBadge role={user.role} />
          </dd>
        </dl>
      </section>
      <section className="card stack" aria-labelledby="connections-title">
        <h2 id="connections-title">Connected services</h2>
        <p>
          Services the assistant may use on your behalf after you signed in to them.{" "}
          <Link href="/settings/connections">Manage connected services</Link>
        </p>
      </section>
      <section className="card stack" aria-labelledby="tokens-title">
        <h2 id="tokens-title">API tokens</h2>
        <p>
          Let a program ask people through this inbox with the HTTP API.{" "}
          <Link href="/settings/tokens">Manage API tokens</Link>
        </p>
      </section>
      <section className="card stack" aria-labelledby="email-title">
        <h2 id="email-title">Email</h2>
        {!mail && (
          <p className="muted">This server has no mail server configured, so no email is sent for now.</p>
        )}
        <EmailModeForm
          mode={emailMode}
          whenDecided={whenDecided}
          digestMinutes={mail ? Math.round(mail.digestWindowMs / 60_000) : null}
        />
      </section>
      <AwaySection db={getDb()} userId={user.id} />
      <section className="card stack" aria-labelledby="model-title">
        <h2 id="model-title">Model</h2>
        <p>
          {model.label}
          {model.demo &&
            " — a deterministic stand-in that needs no API key; see the README to use a real model."}
        </p>
      </section>
    </div>
  );
}
