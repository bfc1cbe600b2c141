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
      <div className="field">
        <label htmlFor="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          defaultValue={email}
          key={email}
          aria-invalid={fieldErrors.email ? true : undefined}
          aria-describedby={fieldErrors.email ? "email-error" : undefined}
        />
        {fieldErrors.email && (
          <p className="field-error" id="email-error">
            {fieldErrors.email}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          aria-invalid={fieldErrors.password ? true : undefined}
          aria-describedby={fieldErrors.password ? "password-error" : undefined}
        />
        {fieldErrors.password && (
          <p className="field-error" id="password-error">
            {fieldErrors.password}
          </p>
        )}
      </div>
      <button type="submit" className="button button-block" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
