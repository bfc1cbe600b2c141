"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { FieldError } from "@/components/field-error";
import { FormOutcome } from "@/components/form-outcome";
import { type ActionResult, type FieldIssue, unsentResult } from "@/lib/errors";
import { localInputToIso, toLocalInputValue } from "./local-input";

export interface AbsenceInput {
  from: string;
  until: string;
  delegate: string;
}

const FIELDS = ["/user", "/from", "/until", "/delegate"];

type Submit<I> = (input: I) => Promise<ActionResult<unknown>>;

type Props =
  | { person?: undefined; submit: Submit<AbsenceInput> }
  /** The admins' form: who is away is a field of its own (`/user`). */
  | { person: "field"; submit: Submit<AbsenceInput & { user: string }> };

/**
 * "Away from … until …, send what is addressed to me to …". The times are typed in the viewer's
 * zone and sent as instants; a refusal shows beside the field it names and keeps every value.
 */
export function AbsenceForm(props: Props) {
  const id = useId();
  const router = useRouter();
  const [user, setUser] = useState("");
  const [from, setFrom] = useState("");
  const [until, setUntil] = useState("");
  const [delegate, setDelegate] = useState("");
  const [busy, setBusy] = useState(false);
  const [issues, setIssues] = useState<FieldIssue[]>([]);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  // Starting now is the usual case; the browser alone knows the viewer's "now" in their zone.
  useEffect(() => setFrom((typed) => typed || toLocalInputValue(new Date())), []);

  const invalid = (path: string) => issues.some((issue) => issue.path === path);
  const described = (path: string, hint?: string) =>
    [hint, invalid(path) ? `${id}${path.replace("/", "-")}-error` : undefined].filter(Boolean).join(" ") ||
    undefined;
  const errorOf = (path: string) => (
    <FieldError issues={issues} path={path} id={`${id}${path.replace("/", "-")}-error`} />
  );

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    const period = { from: localInputToIso(from), until: localInputToIso(until), delegate: delegate.trim() };
    const sent =
      props.person === "field" ? props.submit({ user: user.trim(), ...period }) : props.submit(period);
    const result = await sent.catch(() => unsentResult("The absence could not be saved. Please try again."));
    setBusy(false);
    if (!result.ok) {
      const { issues: found, message } = result.error;
      setIssues(found);
      // Issues on the form's own fields show beside them; anything else, in the message.
      const placed = found.length > 0 && found.every((issue) => FIELDS.includes(issue.path));
      setOutcome({ ok: false, text: placed ? "Not saved: see the fields marked above." : message });
      return;
    }
    setIssues([]);
    setUser("");
    setUntil("");
    setDelegate("");
    setOutcome({ ok: true, text: "Saved." });
    router.refresh();
  };

  return (
    <form className="stack absence-form" noValidate onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{props.person === "field" ? "Set someone's absence" : "Set an absence"}</h3>
      {props.person === "field" && (
        <div className="field">
          <label htmlFor={`${id}-user`}>Who is away (email)</label>
          <input
            id={`${id}-user`}
            type="email"
            value={user}
            autoComplete="off"
            disabled={busy}
            aria-invalid={invalid("/user")}
            aria-describedby={described("/user")}
            onChange={(event) => setUser(event.target.value)}
          />
          {errorOf("/user")}
        </div>
      )}
      <div className="absence-times">
        <div className="field">
          <label htmlFor={`${id}-from`}>Away from</label>
          <input
            id={`${id}-from`}
            type="datetime-local"
            value={from}
            disabled={busy}
            aria-invalid={invalid("/from")}
            aria-describedby={described("/from")}
            onChange={(event) => setFrom(event.target.value)}
          />
          {errorOf("/from")}
        </div>
        <div className="field">
          <label htmlFor={`${id}-until`}>Until</label>
          <input
            id={`${id}-until`}
            type="datetime-local"
            value={until}
            disabled={busy}
            aria-invalid={invalid("/until")}
            aria-describedby={described("/until")}
            onChange={(event) => setUntil(event.target.value)}
          />
          {errorOf("/until")}
        </div>
      </div>
      <p className="muted field-hint">Times are in your own time zone. It ends by itself at its end.</p>
      <div className="field">
        <label htmlFor={`${id}-delegate`}>
          {props.person === "field"
            ? "Send what is addressed to them to (email)"
            : "Send what is addressed to me to (email)"}
        </label>
        <input
          id={`${id}-delegate`}
          type="email"
          value={delegate}
          autoComplete="off"
          disabled={busy}
          aria-invalid={invalid("/delegate")}
          aria-describedby={described("/delegate", `${id}-delegate-hint`)}
          onChange={(event) => setDelegate(event.target.value)}
        />
        <p id={`${id}-delegate-hint`} className="muted field-hint">
          They see what is addressed to {props.person === "field" ? "that person" : "you"} in their inbox, and
          their answer counts as {props.person === "field" ? "that person's" : "yours"}.
        </p>
        {errorOf("/delegate")}
      </div>
      <div>
        <button type="submit" className="button" disabled={busy}>
          {busy ? "Saving…" : "Save absence"}
        </button>
      </div>
      <FormOutcome outcome={outcome} />
    </form>
  );
}
