"use client";

import { useActionState } from "react";
import { signInWithPassword } from "./actions";
import { INITIAL_LOGIN_STATE } from "./login-state";

export function LoginForm({ callbackUrl, defaultEmail }: { callbackUrl: string; defaultEmail?: string }) {
  const [state, action, pending] = useActionState(signInWithPassword, INITIAL_LOGIN_STATE);
  const email = state.status === "idle" ? (defaultEmail ?? "") : state.email;
  const fieldErrors = state.status === "invalid" ? state.fieldErrors : {};

  return (
    <form action={action} noValidate className="stack" aria-describedby="login-error">
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <div id="login-error" aria-live="polite">
        {state.status === "error" && (
          <p className="alert alert-error" role="alert">
            {state.message}
          </p>
        )}
      </div>
      <LoginField
        name="email"
        label="Email"
        type="email"
        autoComplete="username"
        defaultValue={email}
        error={fieldErrors.email}
      />
      <LoginField
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        error={fieldErrors.password}
      />
      <button type="submit" className="button button-block" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}

function LoginField({
  name,
  label,
  type,
  autoComplete,
  defaultValue,
  error,
}: {
  name: string;
  label: string;
  type: string;
  autoComplete: string;
  defaultValue?: string;
  error?: string;
}) {
  const errorId = `${name}-error`;
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        // A new key re-mounts the input, so a refused sign-in shows the email it was tried with.
        key={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
