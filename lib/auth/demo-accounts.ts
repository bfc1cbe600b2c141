import type { Role } from "@/lib/domain/roles";

/** Shown on the sign-in page in demo mode only; these accounts exist for trying the app. */
export const DEMO_PASSWORD = "toolnexus-demo";

export interface DemoAccount {
  email: string;
  name: string;
  role: Role;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { email: "alice@example.com", name: "Alice", role: "user" },
  { email: "bob@example.com", name: "Bob", role: "user" },
  { email: "rita@example.com", name: "Rita (reviewer)", role: "reviewer" },
  { email: "sam@example.com", name: "Sam (reviewer)", role: "reviewer" },
  { email: "admin@example.com", name: "Admin", role: "admin" },
];
