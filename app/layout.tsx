import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { holdDurationMs } from "@/lib/engine/hold-duration";
import { AppHeader } from "./app-header";
import { DecisionToasts } from "./decisions/decision-toasts";
import "./styles/tokens.css";
import "./globals.css";
import "./styles/nav.css";
import "./styles/forms.css";
import "./styles/outcomes.css";
import "./styles/shortcuts.css";

export const metadata: Metadata = {
  title: "toolnexus",
  description: "Chat with an agent whose tool calls wait for people: approvals, forms, questions, sign-ins.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  const page = (
    <>
      <AppHeader />
      <main id="main" className="app-main">
        {children}
      </main>
    </>
  );
  // With the Undo window turned off (TOOLNEXUS_HOLD_SECONDS=0) no page holds a decision: without
  // the toasts' provider every form and the bulk bar answer at once (ADR 0080).
  return (
    <html lang="en">
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        {holdDurationMs() > 0 ? <DecisionToasts>{page}</DecisionToasts> : page}
      </body>
    </html>
  );
}
