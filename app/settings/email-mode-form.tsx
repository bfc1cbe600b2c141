"use client";

import { useState } from "react";
import { FormOutcome } from "@/components/form-outcome";
import type { EmailMode } from "@/lib/domain/notifications";
import { setEmailModeAction } from "./actions";

const CHOICES: { mode: EmailMode; label: string }[] = [
  { mode: "instant", label: "At once: one email per new request" },
  { mode: "digest", label: "Digest: one email with the new requests of each period" },
  { mode: "off", label: "Off: no email" },
];

/** The person's email setting; saved on Save, and the page says so or says why not. */
export function EmailModeForm({
  mode,
  whenDecided,
  digestMinutes,
}: {
  mode: EmailMode;
  whenDecided: boolean;
  digestMinutes: number | null;
}) {
  const [chosen, setChosen] = useState<EmailMode>(mode);
  const [decided, setDecided] = useState(whenDecided);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    const result = await setEmailModeAction({ mode: chosen, whenDecided: decided }).catch(() => null);
    setBusy(false);
    if (!result) return setOutcome({ ok: false, text: "The setting could not be saved. Please try again." });
    if (!result.ok) return setOutcome({ ok: false, text: result.error.message });
    setOutcome({ ok: true, text: "Saved." });
  };

  return (
    <form className="stack" onSubmit={onSubmit}>
      <fieldset>
        <legend>Email me about new requests I can answer</legend>
        {CHOICES.map((choice) => (
          <label key={choice.mode} className="radio-row">
            <input
              type="radio"
              name="emailMode"
              value={choice.mode}
              checked={chosen === choice.mode}
              disabled={busy}
              onChange={() => setChosen(choice.mode)}
            />{" "}
            {choice.mode === "digest" && digestMinutes !== null
              ? `Digest: one email with the new requests of each ${digestMinutes} minutes`
              : choice.label}
          </label>
        ))}
      </fieldset>
      <label className="checkbox">
        <input
          type="checkbox"
          name="emailWhenDecided"
          checked={decided}
          disabled={busy}
          onChange={(event) => setDecided(event.target.checked)}
        />{" "}
        E-mail me when a request I asked is decided
      </label>
      <div>
        <button type="submit" className="button" disabled={busy}>
          Save email setting
        </button>
      </div>
      <FormOutcome outcome={outcome} />
    </form>
  );
}
