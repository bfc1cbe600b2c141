import type { LoginFieldErrors } from "@/lib/auth/login-input";

export type LoginState =
  | { status: "idle" }
  | { status: "invalid"; email: string; fieldErrors: LoginFieldErrors }
  | { status: "error"; email: string; message: string };

export const INITIAL_LOGIN_STATE: LoginState = { status: "idle" };
